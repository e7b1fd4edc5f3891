// Phase breakdown of a cold project search's per-session work (not part of `npm run bench`):
//   BUN_BE_BUN=1 node_modules/opencode-linux-x64/bin/opencode bench/project-profile.ts
//   node --expose-gc --import ./scripts/ts-loader.mjs bench/project-profile.ts
// 200 sessions / ~50 MB as the bench makes them; each phase timed over all sessions, synchronously.

import { toolVisibility } from "../src/history/tool-visibility.ts";
import type { HistoryMessage } from "../src/history/types.ts";
import { buildView } from "../src/history/view.ts";
import { docText, messageDocPieces } from "../src/search/text/documents.ts";
import { quickFilter, scanSession } from "../src/search/scan/scan.ts";
import { parseQuery } from "../src/search/text/query.ts";
import { generateSession } from "./generate.ts";
import { DEFAULT_TUNING } from "../src/search/tuning.ts";

const visibility = toolVisibility([], []);
const runtime = typeof (globalThis as { Bun?: unknown }).Bun === "object" ? "bun" : "node";
const SESSIONS = 200;
const jsons: string[] = [];
for (let s = 0; s < SESSIONS; s++) {
  const id = `ses_p${s}`;
  jsons.push(JSON.stringify(generateSession({ messages: 329, seed: 1000 + s, hugeOutputs: s % 20 === 0 ? 1 : 0, sessionId: id })));
}

function time<T>(label: string, work: () => T): T {
  const t = performance.now();
  const value = work();
  console.log(`  ${label.padEnd(40)} ${(performance.now() - t).toFixed(1).padStart(8)} ms`);
  return value;
}

console.log(`[${runtime}] ${SESSIONS} sessions`);
const sessions = time("JSON.parse (host read stand-in)", () => jsons.map((j) => JSON.parse(j) as HistoryMessage[]));
time("buildView", () => sessions.map((m, i) => buildView(`s${i}`, m, false)));
const pieces = time("messageDocPieces", () => sessions.map((m) => m.flatMap((x) => messageDocPieces(x, visibility, DEFAULT_TUNING.chunkChars))));
const parsed = parseQuery("token bucket limiter", DEFAULT_TUNING);
const quick = quickFilter(parsed)!;
time("docText of every doc", () => {
  let n = 0;
  for (const docs of pieces) for (const d of docs) n += docText(d).length;
  return n;
});
time("quick filter test per segment", () => {
  let n = 0;
  for (const docs of pieces) for (const d of docs) for (const seg of d.whole ? d.pieces : [docText(d)]) if (quick.test(seg)) n++;
  return n;
});
for (let round = 0; round < 2; round++) {
  const t = performance.now();
  for (const m of sessions) await scanSession(m, visibility, parsed, () => true);
  console.log(`  ${`scanSession round ${round}`.padEnd(40)} ${(performance.now() - t).toFixed(1).padStart(8)} ms`);
}
process.exit(0);
