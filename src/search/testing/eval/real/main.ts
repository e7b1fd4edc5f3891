// `npm run eval`: the real-session eval on the cold and the warm path, with every question that
// did not rank an answer first, and the floors and goal beside the figures. Never fails.
// `npm run eval -- --above` also lists, per such question, the ids ranked above its first answer.

import { REAL_EVAL_FLOORS, REAL_EVAL_GOAL } from "./floors.ts";
import { formatRealReport, runRealEval } from "./run-real-eval.ts";
import { loadRealSessions } from "./sessions.ts";

const showAbove = process.argv.includes("--above");
const sessions = loadRealSessions();
for (const path of ["cold", "warm"] as const) {
  const started = performance.now();
  const report = await runRealEval(path, sessions);
  console.log(formatRealReport(path, report, true, showAbove));
  console.log(`(${path}: ${Math.round(performance.now() - started)} ms)\n`);
}
console.log("floors:", JSON.stringify(REAL_EVAL_FLOORS));
console.log("goal:  ", JSON.stringify(REAL_EVAL_GOAL));
