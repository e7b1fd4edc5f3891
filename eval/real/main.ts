// `npm run eval`: the real-session eval on the cold and the warm path, per half (tuning, check,
// both) per scope, kind and agent family, with every question that did not rank an answer first,
// and the floors and goal beside the figures. Never fails. Options:
//   --above          also list, per such question, the ids ranked above its first answer
//   --loso           also print leave-one-session-out figures (each session against the others)
//   --set issue9|issue22|issue39   ask only that question set (question-sets.ts)
//   --half tuning|check    ask only that half's questions (every session is still searched, so
//                    a project question ranks as in a full run); the other half's columns are empty
//   --ablate [name…] instead: each rule or constant of tuning.ts off alone, cold path (ablate.ts)
//   --try <json patch>…    instead: a sweep of tuning patches on the half given (sweep.ts)
//   --phrasing query|fused|appended   how each question is asked: its query alone (default),
//                    with its blind alternatives (alternatives.ts) fused, or appended to the query
//   --study [kind]   instead: the tuning half's questions of that kind (prose) not answered first,
//                    with their answers' and the results above them's kind and head (study.ts)

import { runAblations } from "./ablate.ts";
import { type Phrasing, PHRASINGS } from "./alternatives.ts";
import { REAL_EVAL_CHECK_FLOORS, REAL_EVAL_GOAL } from "./floors.ts";
import type { RealQuestionKind } from "./questions.ts";
import { QUESTION_SETS, REAL_QUESTIONS, type QuestionSet } from "./question-sets.ts";
import { formatLeaveOneSessionOut, formatRealReport, leaveOneSessionOut, summarize } from "./real-report.ts";
import { runRealEval } from "./run-real-eval.ts";
import { loadEvalSessions } from "./sessions.ts";
import { type Half, HALVES, halfOf } from "./split.ts";
import { formatStudy } from "./study.ts";
import { runSweep } from "./sweep.ts";

const args = process.argv.slice(2);
const showAbove = args.includes("--above");
const loso = args.includes("--loso");
const set = args.includes("--set") ? (args[args.indexOf("--set") + 1] as QuestionSet) : undefined;
if (set !== undefined && !(set in QUESTION_SETS)) throw new Error(`--set takes one of ${Object.keys(QUESTION_SETS).join(", ")}`);
const half = args.includes("--half") ? (args[args.indexOf("--half") + 1] as Half) : undefined;
if (half !== undefined && !HALVES.includes(half)) throw new Error(`--half takes one of ${HALVES.join(", ")}`);
const inSet = set === undefined ? REAL_QUESTIONS : QUESTION_SETS[set];
const questions = half === undefined ? inSet : inSet.filter((q) => halfOf(q.session) === half);
/** The arguments after `flag` up to the next option. */
const argsAfter = (flag: string) => {
  const rest = args.slice(args.indexOf(flag) + 1);
  const next = rest.findIndex((arg) => arg.startsWith("--"));
  return next < 0 ? rest : rest.slice(0, next);
};

const phrasing = args.includes("--phrasing") ? (args[args.indexOf("--phrasing") + 1] as Phrasing) : "query";
if (!PHRASINGS.includes(phrasing)) throw new Error(`--phrasing takes one of ${PHRASINGS.join(", ")}`);

const sessions = loadEvalSessions();
if (args.includes("--try")) {
  if (half === undefined) throw new Error("--try sweeps one half: give --half tuning (or check)");
  await runSweep(sessions, questions, half, argsAfter("--try"), phrasing);
  process.exit(0);
}
if (args.includes("--study")) {
  if (half !== "tuning") throw new Error("--study reads the tuning half only: give --half tuning");
  const kind = (argsAfter("--study")[0] ?? "prose") as RealQuestionKind;
  console.log(formatStudy(await runRealEval("cold", sessions, questions), sessions, kind));
  process.exit(0);
}
if (args.includes("--ablate")) {
  if (half !== undefined) throw new Error("--ablate judges the check half against both: run it without --half");
  await runAblations(sessions, questions, argsAfter("--ablate"));
  process.exit(0);
}
for (const path of ["cold", "warm"] as const) {
  const started = performance.now();
  const answers = await runRealEval(path, sessions, questions, phrasing);
  const asked = phrasing === "query" ? "" : `, ${phrasing} alternatives`;
  console.log(formatRealReport(`${path}, ${set ?? "all"} questions${half ? `, ${half} half only` : ""}${asked}`, summarize(answers), true, showAbove));
  if (loso) console.log(`\n${formatLeaveOneSessionOut(path, leaveOneSessionOut(answers))}`);
  console.log(`(${path}: ${Math.round(performance.now() - started)} ms)\n`);
}
console.log("check-half floors:", JSON.stringify(REAL_EVAL_CHECK_FLOORS));
console.log("goal:             ", JSON.stringify(REAL_EVAL_GOAL));
