// Phase breakdown of one session's search work (not part of `npm run bench`):
//   BUN_BE_BUN=1 node_modules/opencode-linux-x64/bin/opencode bench/profile.ts [messages]
//   node --expose-gc --import ./scripts/ts-loader.mjs bench/profile.ts [messages]
// Times the pieces the cold scan, the build and a warm search are made of, and the heap held.

import { toolVisibility } from "../src/history/tool-visibility.ts";
import { buildView } from "../src/history/view.ts";
import { HIT_TYPES, messageDocs } from "../src/search/text/documents.ts";
import { byteLength } from "../src/history/compact.ts";
import { fold } from "../src/search/text/normalize.ts";
import { SessionIndex } from "../src/search/index/session-index.ts";
import { tokenize } from "../src/search/text/tokenize.ts";
import { parseQuery } from "../src/search/text/query.ts";
import { nearestTerms } from "../src/search/text/typos.ts";
import { scanSession } from "../src/search/scan/scan.ts";
import { generateSession } from "./generate.ts";
import { heapMb } from "./heap.ts";
import { DEFAULT_TUNING } from "../src/search/tuning.ts";

const messagesWanted = Number(process.argv[2] ?? 10000);
const visibility = toolVisibility([], []);
const runtime = typeof (globalThis as { Bun?: unknown }).Bun === "object" ? "bun" : "node";

function time<T>(label: string, work: () => T, mb: number): T {
  const t = performance.now();
  const value = work();
  const ms = performance.now() - t;
  console.log(`  ${label.padEnd(34)} ${ms.toFixed(1).padStart(8)} ms  ${(ms / mb).toFixed(1).padStart(7)} ms/MB`);
  return value;
}

const generated = generateSession({ messages: messagesWanted, seed: 3, hugeOutputs: Math.max(1, Math.round(messagesWanted / 2000)), sessionId: "ses_p" });
const json = JSON.stringify(generated);
let bytes = 0;
for (const m of generated) for (const d of messageDocs(m, visibility, DEFAULT_TUNING.chunkChars)) bytes += byteLength(d.text);
const mb = bytes / 1e6;
console.log(`[${runtime}] ${messagesWanted} messages, ${mb.toFixed(2)} MB text, JSON ${(json.length / 1e6).toFixed(1)} MB`);
const messages = time("JSON.parse (host read stand-in)", () => JSON.parse(json) as typeof generated, mb);
time("buildView", () => buildView("ses_p", messages, false), mb);
const docs = time("messageDocs", () => messages.flatMap((m) => messageDocs(m, visibility, DEFAULT_TUNING.chunkChars)), mb);
const folded = time("fold", () => docs.map((d) => fold(d.text)), mb);
time("toLowerCase", () => docs.map((d) => d.text.toLowerCase()), mb);
time(
  "tokenize (strings)",
  () => {
    let n = 0;
    for (let i = 0; i < docs.length; i++) n += tokenize(docs[i]!.text, folded[i]).length;
    return n;
  },
  mb,
);
const parsed = parseQuery("token bucket limiter", DEFAULT_TUNING);
await (async () => {
  const t = performance.now();
  await scanSession(messages, visibility, parsed, () => true);
  const ms = performance.now() - t;
  console.log(`  ${"scanSession (token bucket limiter)".padEnd(34)} ${ms.toFixed(1).padStart(8)} ms  ${(ms / mb).toFixed(1).padStart(7)} ms/MB`);
})();

const before = await heapMb();
const index = time(
  "SessionIndex build (sync)",
  () => {
    const index = new SessionIndex(visibility, DEFAULT_TUNING);
    for (const m of messages) index.addMessage(m);
    for (const _ of index.groupSteps());
    return index;
  },
  mb,
);
const after = await heapMb();
console.log(
  `  heap held by index ${(after - before).toFixed(1)} MB = ${((after - before) / mb).toFixed(2)} MB/MB (estimate ${(index.bytes() / 1e6).toFixed(1)} MB)`,
);
const view = buildView("ses_p", messages, false);
for (const q of ["token bucket limiter", "computeLineItemTotals", "无线耳机", "refund policy", "ERROR webfetch"]) {
  const ts: number[] = [];
  let n = 0;
  for (let r = 0; r < 5; r++) {
    const t = performance.now();
    n = index.search(parseQuery(q, DEFAULT_TUNING), { types: new Set(HIT_TYPES) }, view).length;
    ts.push(performance.now() - t);
  }
  ts.sort((a, b) => a - b);
  console.log(`  index.search ${JSON.stringify(q).padEnd(24)} median ${ts[2]!.toFixed(2)} ms (${n} docs)`);
}
// A typo's correction walks the whole term table (text/typos.ts).
for (const word of ["zzqx", "beacuse", "peopel", "througth", "limitre", "invoce"]) {
  const tn = performance.now();
  const nearest = nearestTerms(index.vocabulary(), [word])
    .get(word)
    ?.map((one) => one.term);
  console.log(`  nearestTerms ${JSON.stringify(word).padEnd(21)} ${(performance.now() - tn).toFixed(2)} ms → ${nearest ?? "none"}`);
}
const t = performance.now();
for (let r = 0; r < 20; r++) index.diff(messages);
console.log(`  diff of ${messages.length} messages        ${((performance.now() - t) / 20).toFixed(2)} ms`);
const tv = performance.now();
for (let r = 0; r < 20; r++) buildView("ses_p", messages, false);
console.log(`  buildView                        ${((performance.now() - tv) / 20).toFixed(2)} ms`);

// The warm path through the service, piece by piece.
const { createInspectableSearchService } = await import("../src/search/service.ts");
const { defaultConfig } = await import("../src/config/schema.ts");
const config = defaultConfig();
const source = {
  listSessions: async () => [{ id: "ses_p", title: "p", created: 0, updated: 0 }],
  getSession: async () => ({ id: "ses_p", title: "p", created: 0, updated: 0 }),
  loadMessages: async () => messages,
};
const svc = createInspectableSearchService({ source, config: () => config, visibility: () => visibility });
await svc.buildIndex("ses_p");
for (const q of ["token bucket limiter", "computeLineItemTotals", "refund policy"]) {
  const ts: number[] = [];
  for (let r = 0; r < 7; r++) {
    const t0 = performance.now();
    await svc.search({ query: q, sessionId: "ses_p", callerSessionId: "x", scope: "session", types: ["text", "tool"], limit: 10 });
    ts.push(performance.now() - t0);
  }
  ts.sort((a, b) => a - b);
  console.log(`  service warm search ${JSON.stringify(q).padEnd(24)} median ${ts[3]!.toFixed(2)} ms`);
}
process.exit(0);
