import { describe, expect, it } from "vitest";
import { REAL_EVAL_CHECK_FLOORS } from "./floors.ts";
import { QUESTION_SETS, REAL_QUESTIONS } from "./question-sets.ts";
import { formatRealReport, summarize } from "./real-report.ts";
import { KINDS, runRealEval, SCOPES } from "./run-real-eval.ts";
import { loadEvalSessions } from "./sessions.ts";
import { SPLIT } from "./split.ts";

const sessions = loadEvalSessions();
/** The questions the floors were set on (floors.ts): issue 9's and issue 22's; issue 39's have none yet. */
const FLOORED = [...QUESTION_SETS.issue9, ...QUESTION_SETS.issue22];
/** Harness limit, not an assertion: a full pass asks ~350 questions of 4 MB of history. */
const HARNESS_TIMEOUT_MS = 600_000;

describe("search quality on real sessions (labelled eval)", () => {
  it("asks enough questions of every kind, in both scopes, about messages that exist in sessions of the split", () => {
    expect(REAL_QUESTIONS.length).toBeGreaterThanOrEqual(180);
    for (const kind of KINDS) expect(REAL_QUESTIONS.filter((q) => q.kind === kind).length, kind).toBeGreaterThanOrEqual(10);
    expect(REAL_QUESTIONS.filter((q) => !q.sessionOnly).length).toBeGreaterThanOrEqual(150);
    const ids = new Map(sessions.map((s) => [s.name, new Set(s.messages.map((m) => m.id))]));
    for (const question of REAL_QUESTIONS) {
      const inSession = ids.get(question.session);
      expect(inSession, question.session).toBeDefined();
      expect(question.answers.length, question.query).toBeGreaterThan(0);
      for (const id of question.answers) expect(inSession!.has(id), `${question.query}: ${id}`).toBe(true);
    }
    const queries = REAL_QUESTIONS.map((q) => `${q.session} ${q.query}`);
    expect(new Set(queries).size).toBe(queries.length);
  });

  it("holds issue 22's questions, mostly prose, over every session of the split that issue 9 left unlabelled and the Claude Code ones", () => {
    const added = QUESTION_SETS.issue22;
    expect(added.length).toBeGreaterThanOrEqual(60);
    expect(added.filter((q) => q.kind === "prose").length).toBeGreaterThan(added.length / 2);
    const labelledBefore = new Set(QUESTION_SETS.issue9.map((q) => q.session));
    const older = SPLIT.filter((s) => s.folder !== "dev2");
    const expected = older.filter((s) => !labelledBefore.has(s.name) || s.family === "claude-code").map((s) => s.name);
    for (const name of expected)
      expect(
        added.some((q) => q.session === name),
        name,
      ).toBe(true);
  });

  for (const path of ["cold", "warm"] as const) {
    it(
      `meets the check half's floors per scope and per kind on the ${path} path (issue 9's and 22's questions)`,
      async () => {
        const report = summarize(await runRealEval(path, sessions, FLOORED));
        console.log(formatRealReport(path, report, false));
        for (const scope of SCOPES) {
          const floor = REAL_EVAL_CHECK_FLOORS[scope];
          const got = report.byHalf.check[scope];
          expect(got.overall.recallAt5, `${scope} recall@5`).toBeGreaterThanOrEqual(floor.recallAt5);
          expect(got.overall.mrr, `${scope} MRR`).toBeGreaterThanOrEqual(floor.mrr);
          for (const kind of KINDS) expect(got.byKind[kind]?.recallAt5, `${scope} ${kind} recall@5`).toBeGreaterThanOrEqual(floor.kindRecallAt5[kind]);
        }
      },
      HARNESS_TIMEOUT_MS,
    );
  }

  // Issue 51: the blind alternatives (alternatives.jsonl), fused, must keep paying on the check half
  // over every question set, in both scopes; a fusion that stops paying fails here, not only in the notes.
  it(
    "with the blind alternatives fused, the check half answers better than the query alone in both scopes",
    async () => {
      const alone = summarize(await runRealEval("cold", sessions, REAL_QUESTIONS, "query"));
      const fused = summarize(await runRealEval("cold", sessions, REAL_QUESTIONS, "fused"));
      console.log(formatRealReport("cold, alternatives fused", fused, false));
      for (const scope of SCOPES) {
        const before = alone.byHalf.check[scope].overall;
        const after = fused.byHalf.check[scope].overall;
        expect(after.recallAt5, `${scope} recall@5`).toBeGreaterThan(before.recallAt5);
        expect(after.mrr, `${scope} MRR`).toBeGreaterThan(before.mrr);
        expect(fused.byHalf.check[scope].byKind.prose?.recallAt5, `${scope} prose recall@5`).toBeGreaterThanOrEqual(
          alone.byHalf.check[scope].byKind.prose?.recallAt5 ?? 0,
        );
      }
    },
    HARNESS_TIMEOUT_MS,
  );
});
