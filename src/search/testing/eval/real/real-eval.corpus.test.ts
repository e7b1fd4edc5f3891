import { describe, expect, it } from "vitest";
import { REAL_EVAL_FLOORS, REAL_EVAL_GOAL } from "./floors.ts";
import { REAL_QUESTIONS } from "./questions.ts";
import { formatRealReport, KINDS, runRealEval, SCOPES } from "./run-real-eval.ts";
import { loadRealSessions } from "./sessions.ts";

const sessions = loadRealSessions();
/** Harness limit, not an assertion: a full pass asks ~200 questions of 3.4 MB of history. */
const HARNESS_TIMEOUT_MS = 600_000;

describe("search quality on real sessions (labelled eval)", () => {
  it("asks enough questions of every kind, in both scopes, about messages that exist", () => {
    expect(REAL_QUESTIONS.length).toBeGreaterThanOrEqual(80);
    for (const kind of KINDS) expect(REAL_QUESTIONS.filter((q) => q.kind === kind).length, kind).toBeGreaterThanOrEqual(10);
    expect(REAL_QUESTIONS.filter((q) => !q.sessionOnly).length).toBeGreaterThanOrEqual(80);
    const ids = new Map(sessions.map((s) => [s.name, new Set(s.messages.map((m) => m.id))]));
    for (const question of REAL_QUESTIONS) {
      const inSession = ids.get(question.session);
      expect(inSession, question.session).toBeDefined();
      expect(question.answers.length, question.query).toBeGreaterThan(0);
      for (const id of question.answers) expect(inSession!.has(id), `${question.query}: ${id}`).toBe(true);
    }
  });

  it("holds search to at least issue 9's goal: the floors are never under it", () => {
    for (const scope of SCOPES) {
      const floor = REAL_EVAL_FLOORS[scope];
      expect(floor.recallAt5, `${scope} recall@5`).toBeGreaterThanOrEqual(REAL_EVAL_GOAL.recallAt5);
      expect(floor.mrr, `${scope} MRR`).toBeGreaterThanOrEqual(REAL_EVAL_GOAL.mrr);
      for (const kind of KINDS) expect(floor.kindRecallAt5[kind], `${scope} ${kind}`).toBeGreaterThanOrEqual(REAL_EVAL_GOAL.kindRecallAt5);
    }
  });

  for (const path of ["cold", "warm"] as const) {
    it(
      `meets the floors per scope and per kind on the ${path} path`,
      async () => {
        const report = await runRealEval(path, sessions);
        console.log(formatRealReport(path, report, false));
        for (const scope of SCOPES) {
          const floor = REAL_EVAL_FLOORS[scope];
          const got = report.byScope[scope];
          expect(got.overall.recallAt5, `${scope} recall@5`).toBeGreaterThanOrEqual(floor.recallAt5);
          expect(got.overall.mrr, `${scope} MRR`).toBeGreaterThanOrEqual(floor.mrr);
          for (const kind of KINDS) expect(got.byKind[kind]?.recallAt5, `${scope} ${kind} recall@5`).toBeGreaterThanOrEqual(floor.kindRecallAt5[kind]);
        }
      },
      HARNESS_TIMEOUT_MS,
    );
  }
});
