// `npm run eval`: the real-session eval on the cold and the warm path, per half (tuning, check,
// both) per scope and kind, with every question that did not rank an answer first, and the floors
// and goal beside the figures. Never fails. Options:
//   --above          also list, per such question, the ids ranked above its first answer
//   --loso           also print leave-one-session-out figures (each session against the others)
//   --set issue9|issue22   ask only that question set (question-sets.ts)
//   --ablate [name…] instead: each rule or constant of tuning.ts off alone, cold path (ablate.ts)

import { runAblations } from "./ablate.ts";
import { REAL_EVAL_CHECK_FLOORS, REAL_EVAL_GOAL } from "./floors.ts";
import { QUESTION_SETS, REAL_QUESTIONS, type QuestionSet } from "./question-sets.ts";
import { formatLeaveOneSessionOut, formatRealReport, leaveOneSessionOut, summarize } from "./real-report.ts";
import { runRealEval } from "./run-real-eval.ts";
import { loadEvalSessions } from "./sessions.ts";

const args = process.argv.slice(2);
const showAbove = args.includes("--above");
const loso = args.includes("--loso");
const set = args.includes("--set") ? (args[args.indexOf("--set") + 1] as QuestionSet) : undefined;
if (set !== undefined && !(set in QUESTION_SETS)) throw new Error(`--set takes one of ${Object.keys(QUESTION_SETS).join(", ")}`);
const questions = set === undefined ? REAL_QUESTIONS : QUESTION_SETS[set];

const sessions = loadEvalSessions();
if (args.includes("--ablate")) {
  const names = args.slice(args.indexOf("--ablate") + 1).filter((arg) => !arg.startsWith("--"));
  await runAblations(sessions, questions, names);
  process.exit(0);
}
for (const path of ["cold", "warm"] as const) {
  const started = performance.now();
  const answers = await runRealEval(path, sessions, questions);
  console.log(formatRealReport(`${path}, ${set ?? "all"} questions`, summarize(answers), true, showAbove));
  if (loso) console.log(`\n${formatLeaveOneSessionOut(path, leaveOneSessionOut(answers))}`);
  console.log(`(${path}: ${Math.round(performance.now() - started)} ms)\n`);
}
console.log("check-half floors:", JSON.stringify(REAL_EVAL_CHECK_FLOORS));
console.log("goal:             ", JSON.stringify(REAL_EVAL_GOAL));
