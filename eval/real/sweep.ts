// A sweep of tuning settings on one half of the real-session eval: each setting a patch over
// DEFAULT_TUNING (tuningWith), asked by services built with it on the cold path against main's tuning, one line each, and the
// selection rule fixed before the sweep (docs/search-notes.md, "A sweep of the constants never
// re-chosen"): the highest session MRR + project MRR among the settings whose recall@5, overall
// and on prose questions, is at least main's in both scopes. Main itself is a candidate, and wins
// ties. `npm run eval -- --half tuning --try '<json patch>' …`.

import { type TuningPatch, tuningWith } from "../../src/search/testing/tuning.ts";
import type { Metrics } from "../run-eval.ts";
import type { Phrasing } from "./alternatives.ts";
import type { RealQuestion } from "./questions.ts";
import { type RealEvalReport, summarize } from "./real-report.ts";
import { runRealEval, SCOPES } from "./run-real-eval.ts";
import type { RealSession } from "./sessions.ts";
import type { Half } from "./split.ts";

/** One setting's figures on the half swept, per scope: overall and prose. */
export interface SweptFigures {
  name: string;
  byScope: Record<(typeof SCOPES)[number], { overall: Metrics; prose: Metrics }>;
}

function figuresOf(name: string, report: RealEvalReport, half: Half): SweptFigures {
  const byScope = {} as SweptFigures["byScope"];
  for (const scope of SCOPES) {
    const got = report.byHalf[half][scope];
    byScope[scope] = { overall: got.overall, prose: got.byKind.prose ?? { queries: 0, recallAt5: 0, mrr: 0 } };
  }
  return { name, byScope };
}

const mrrSum = (f: SweptFigures) => SCOPES.reduce((sum, scope) => sum + f.byScope[scope].overall.mrr, 0);

/** Why a setting may not be chosen (recall@5 below main's somewhere), or undefined when it may. */
export function ineligible(main: SweptFigures, setting: SweptFigures): string | undefined {
  const below: string[] = [];
  for (const scope of SCOPES) {
    for (const cell of ["overall", "prose"] as const) {
      if (setting.byScope[scope][cell].recallAt5 < main.byScope[scope][cell].recallAt5 - 1e-9) below.push(`${scope} ${cell}`);
    }
  }
  return below.length > 0 ? `recall@5 below main's: ${below.join(", ")}` : undefined;
}

/** The rule: the eligible setting with the highest MRR sum; main on a tie or when none beats it. */
export function chooseSetting(main: SweptFigures, settings: readonly SweptFigures[]): SweptFigures {
  let best = main;
  for (const setting of settings) if (ineligible(main, setting) === undefined && mrrSum(setting) > mrrSum(best) + 1e-9) best = setting;
  return best;
}

const pair = (m: Metrics) => `${m.recallAt5.toFixed(3)}/${m.mrr.toFixed(3)}`;

function formatLine(main: SweptFigures, f: SweptFigures): string {
  const cells = SCOPES.map((scope) => `${scope} ${pair(f.byScope[scope].overall)} prose ${pair(f.byScope[scope].prose)}`);
  const why = f === main ? "" : `  ${ineligible(main, f) ?? "eligible"}`;
  return `${f.name}\n    ${cells.join("  ")}  sum ${mrrSum(f).toFixed(4)}${why}`;
}

/** Asks `questions` (one half's) under main's tuning and under each patch, printing a line per setting as it goes, then the rule's choice. */
export async function runSweep(
  sessions: readonly RealSession[],
  questions: readonly RealQuestion[],
  half: Half,
  patches: readonly string[],
  phrasing: Phrasing = "query",
): Promise<void> {
  const parsed = patches.map((text) => ({ name: text, patch: JSON.parse(text) as TuningPatch }));
  const main = figuresOf("main", summarize(await runRealEval("cold", sessions, questions, phrasing)), half);
  console.log(`sweep on the ${half} half (cold path), recall@5/MRR\n${formatLine(main, main)}`);
  const swept: SweptFigures[] = [];
  for (const { name, patch } of parsed) {
    swept.push(figuresOf(name, summarize(await runRealEval("cold", sessions, questions, phrasing, tuningWith(patch))), half));
    console.log(formatLine(main, swept.at(-1)!));
  }
  console.log(`chosen by the rule: ${chooseSetting(main, swept).name}`);
}
