// The ablation of issue 22: each ranking rule and constant of tuning.ts switched off (or set to
// its neutral value) alone, the real-session eval asked again on the cold path, and per half,
// scope and kind its recall@5 / MRR with the change against the full ranking. The verdict is the
// issue's rule, read on the check half only: a rule stays if it raises the check half (overall,
// in a scope) by at least one question's worth (1/n of the cell) and lowers no kind there by more
// than one question's worth of that kind. `npm run eval -- --ablate [name…]`.

import { type TuningPatch, tuningWith } from "../../src/search/testing/tuning.ts";
import type { Metrics } from "../run-eval.ts";
import type { RealQuestion } from "./questions.ts";
import { type RealEvalReport, summarize } from "./real-report.ts";
import { KINDS, runRealEval, SCOPES } from "./run-real-eval.ts";
import type { RealSession } from "./sessions.ts";
import { HALVES } from "./split.ts";

interface Ablation {
  name: string;
  /** What is switched off, or set to which neutral value. */
  change: string;
  patch: TuningPatch;
}

const ABLATIONS: readonly Ablation[] = [
  { name: "compounds", change: "path/name-held-whole boost off", patch: { compounds: { on: false } } },
  { name: "intent", change: "command/change intent boost off", patch: { intent: { on: false } } },
  { name: "summary", change: "summaryWeight 0.5 → 1", patch: { summaryWeight: 1 } },
  { name: "input", change: "inputWeight 3 → 1", patch: { inputWeight: 1 } },
  { name: "coverage", change: "coverage factor off (×1)", patch: { coverage: { on: false } } },
  { name: "found-words", change: "coverage counts every query word", patch: { coverage: { foundWordsOnly: false } } },
  { name: "spread", change: "otherShare 0.25 → 0 (best part, best chunk alone)", patch: { spread: { otherShare: 0 } } },
  { name: "length", change: "BM25 b 0.75 → 0 (no length normalisation)", patch: { bm25: { b: 0 } } },
  { name: "stems", change: "stem variants off", patch: { query: { stems: { on: false } } } },
  { name: "function-words", change: "function words as content words", patch: { query: { functionWords: { on: false } } } },
  { name: "languages", change: "German/Portuguese function words as content words", patch: { query: { languages: { on: false } } } },
  { name: "plain-question", change: "tool parts weigh as text for plain-word questions", patch: { plainQuestion: { on: false } } },
  { name: "typos", change: "typo correction off", patch: { typos: { on: false } } },
  { name: "shared-idf", change: "project: each session with its own statistics", patch: { project: { sharedIdf: false } } },
  { name: "session-share", change: "project: no session share", patch: { project: { sessionShare: false } } },
];

type Cell = { scope: (typeof SCOPES)[number]; kind: "overall" | (typeof KINDS)[number] };

function metricOf(report: RealEvalReport, half: (typeof HALVES)[number], { scope, kind }: Cell): Metrics | undefined {
  const got = report.byHalf[half][scope];
  return kind === "overall" ? got.overall : got.byKind[kind];
}

/** The rule on the check half: what the rule (the full ranking against the ablated one) gains there. */
export function verdict(full: RealEvalReport, ablated: RealEvalReport): { keep: boolean; why: string } {
  let gains = false;
  const losses: string[] = [];
  for (const scope of SCOPES) {
    for (const kind of ["overall", ...KINDS] as const) {
      const f = metricOf(full, "check", { scope, kind });
      const a = metricOf(ablated, "check", { scope, kind });
      if (!f || !a || f.queries === 0) continue;
      // One question's worth, with room for rounding: exactly one question gained counts, exactly one lost is within the margin.
      const worth = 1 / f.queries;
      const dRecall = f.recallAt5 - a.recallAt5;
      const dMrr = f.mrr - a.mrr;
      if (kind === "overall" && (dRecall >= worth - 1e-9 || dMrr >= worth - 1e-9)) gains = true;
      if (kind !== "overall" && (dRecall < -worth - 1e-9 || dMrr < -worth - 1e-9)) losses.push(`${scope} ${kind}`);
    }
  }
  if (!gains) return { keep: false, why: "gains the check half less than one question" };
  if (losses.length > 0) return { keep: false, why: `lowers ${losses.join(", ")} on the check half by more than one question` };
  return { keep: true, why: "gains the check half by a question or more, lowers no kind there by more" };
}

const signed = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(3)}`;

/** One line per half, scope and kind: the ablated figures and the rule's effect (full − ablated). */
function formatAblation(ablation: Ablation, full: RealEvalReport, ablated: RealEvalReport): string {
  const lines = [`## ${ablation.name}: ${ablation.change}`];
  for (const half of HALVES) {
    for (const scope of SCOPES) {
      const cells = (["overall", ...KINDS] as const).map((kind) => {
        const f = metricOf(full, half, { scope, kind });
        const a = metricOf(ablated, half, { scope, kind });
        if (!f || !a) return `${kind} -`;
        return `${kind} ${a.recallAt5.toFixed(3)}/${a.mrr.toFixed(3)} (rule ${signed(f.recallAt5 - a.recallAt5)}/${signed(f.mrr - a.mrr)})`;
      });
      lines.push(`  ${half.padEnd(6)} ${scope.padEnd(7)} ${cells.join("  ")}`);
    }
  }
  const { keep, why } = verdict(full, ablated);
  lines.push(`  verdict: ${keep ? "keep" : "delete"} (${why})`);
  return lines.join("\n");
}

/** Runs the ablations named (all when none), each against the full ranking, printing as it goes. */
export async function runAblations(sessions: readonly RealSession[], questions: readonly RealQuestion[], names: readonly string[]): Promise<void> {
  const chosen = names.length === 0 ? ABLATIONS : ABLATIONS.filter((a) => names.includes(a.name));
  const unknown = names.filter((name) => !ABLATIONS.some((a) => a.name === name));
  if (unknown.length > 0) throw new Error(`no ablation named ${unknown.join(", ")}; known: ${ABLATIONS.map((a) => a.name).join(", ")}`);
  const full = summarize(await runRealEval("cold", sessions, questions));
  for (const ablation of chosen) {
    const ablated = await runRealEval("cold", sessions, questions, "query", tuningWith(ablation.patch));
    console.log(formatAblation(ablation, full, summarize(ablated)));
  }
}
