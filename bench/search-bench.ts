// Search bench: prints figures, never fails. Runs in the host's Bun and in Node 20:
//   BUN_BE_BUN=1 node_modules/opencode-linux-x64/bin/opencode bench/search-bench.ts
//   node --expose-gc --import ./scripts/ts-loader.mjs bench/search-bench.ts
// BENCH_QUICK=1 shrinks every size by 10× for a fast look; BENCH_ONLY=sessions|project runs one half;
// BENCH_ONLY=alternatives: a search with three alternatives against the query alone (issue 51),
// cold and warm at 10,000 messages and cold and next in project scope, BENCH_ROUNDS rounds (3).

import { defaultConfig } from "../src/config/schema.ts";
import type { HistoryMessage, SessionInfo } from "../src/history/types.ts";
import { toolVisibility } from "../src/history/tool-visibility.ts";
import type { HistorySource } from "../src/history/source.ts";
import { messageDocs } from "../src/search/text/documents.ts";
import { byteLength } from "../src/history/compact.ts";
import { createInspectableSearchService, type InspectableSearchService } from "../src/search/service.ts";
import type { SearchRequest } from "../src/search/types.ts";
import { extraMessage, generateSession } from "./generate.ts";
import { heapMb } from "./heap.ts";
import { DEFAULT_TUNING } from "../src/search/tuning.ts";

const QUICK = process.env.BENCH_QUICK === "1";
const scale = (n: number) => (QUICK ? Math.max(20, Math.round(n / 10)) : n);
const runtime =
  typeof (globalThis as { Bun?: unknown }).Bun === "object" ? `bun ${(process.versions as Record<string, string>).bun}` : `node ${process.versions.node}`;
const visibility = toolVisibility([], []);

/** Stores each session as JSON and parses it on first read, like a host read; then serves the same objects. */
class JsonSource implements HistorySource {
  private readonly json = new Map<string, string>();
  private readonly loaded = new Map<string, HistoryMessage[]>();
  private readonly infos = new Map<string, SessionInfo>();

  add(info: SessionInfo, messages: HistoryMessage[]): void {
    this.json.set(info.id, JSON.stringify(messages));
    this.infos.set(info.id, info);
  }
  forget(sessionId: string): void {
    this.loaded.delete(sessionId);
  }
  append(sessionId: string, message: HistoryMessage): void {
    const list = this.loaded.get(sessionId);
    if (list) this.loaded.set(sessionId, [...list, message]);
  }
  async listSessions(): Promise<SessionInfo[]> {
    return [...this.infos.values()].sort((a, b) => (b.updated ?? 0) - (a.updated ?? 0));
  }
  async getSession(id: string): Promise<SessionInfo> {
    const info = this.infos.get(id);
    if (!info) throw new Error(`no session ${id}`);
    return info;
  }
  async loadMessages(id: string): Promise<HistoryMessage[]> {
    let list = this.loaded.get(id);
    if (!list) {
      const start = performance.now();
      list = JSON.parse(this.json.get(id)!) as HistoryMessage[];
      hostReads.push([start, performance.now()]);
      this.loaded.set(id, list);
    }
    return list;
  }
}

function service(source: HistorySource): InspectableSearchService {
  const config = defaultConfig();
  config.search.cache_bytes = 4 * 1024 ** 3;
  return createInspectableSearchService({ source, config: () => config, visibility: () => visibility });
}

/** Intervals spent in the bench's own JSON.parse (standing in for the host's read). */
const hostReads: Array<[number, number]> = [];

function hostReadWithin(from: number, to: number): number {
  let total = 0;
  for (const [a, b] of hostReads) total += Math.max(0, Math.min(b, to) - Math.max(a, from));
  return total;
}

/**
 * Longest gap between timer ticks while `work` runs: the longest event-loop stall. `stallMs` is
 * the plugin's own (the stand-in host read's JSON.parse taken out of each gap); `withReadMs` is
 * the raw gap.
 */
async function stallDuring<T>(work: () => Promise<T>): Promise<{ value: T; stallMs: number; withReadMs: number }> {
  let last = performance.now();
  let worst = 0;
  let worstRaw = 0;
  let running = true;
  const gap = (t: number) => {
    worstRaw = Math.max(worstRaw, t - last);
    worst = Math.max(worst, t - last - hostReadWithin(last, t));
    last = t;
  };
  const tick = () => {
    gap(performance.now());
    if (running) setTimeout(tick, 1);
  };
  hostReads.length = 0;
  setTimeout(tick, 1);
  const value = await work();
  running = false;
  gap(performance.now());
  return { value, stallMs: worst, withReadMs: worstRaw };
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t = performance.now();
  const value = await work();
  return { value, ms: performance.now() - t };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function request(query: string, sessionId: string, scope: "session" | "project" = "session", alternatives?: string[]): SearchRequest {
  const asked: SearchRequest = {
    query,
    sessionId: scope === "session" ? sessionId : undefined,
    callerSessionId: "ses_bench_caller",
    scope,
    types: ["text", "tool"],
    limit: 10,
  };
  if (alternatives) asked.alternatives = alternatives;
  return asked;
}

const f = (n: number, digits = 1) => n.toFixed(digits);

async function sessionBench(messages: number, seed: number): Promise<void> {
  const sessionId = `ses_bench_${messages}`;
  const generated = generateSession({ messages, seed, hugeOutputs: Math.max(1, Math.round(messages / 2000)), sessionId });
  let chars = 0;
  let bytes = 0;
  const texts: string[] = [];
  for (const m of generated) {
    for (const d of messageDocs(m, visibility, DEFAULT_TUNING.chunkChars)) {
      chars += d.text.length;
      bytes += byteLength(d.text);
      texts.push(d.text);
    }
  }
  const mb = bytes / 1e6;
  const queries = ["token bucket limiter", "computeLineItemTotals", "无线耳机", "refund policy", "ERROR webfetch"];

  // Floor: a plain linear scan (lowercase + indexOf), and over pre-lowered text.
  const scanStart = performance.now();
  let found = 0;
  for (const text of texts) if (text.toLowerCase().includes("bucket")) found++;
  const scanMs = performance.now() - scanStart;
  const lowered = texts.map((t) => t.toLowerCase());
  const preStart = performance.now();
  for (const text of lowered) if (text.includes("bucket")) found++;
  const preMs = performance.now() - preStart;

  // Cold: fresh source and service; the first search reads (parses) the session and scans it.
  const source = new JsonSource();
  source.add({ id: sessionId, title: "bench", created: 0, updated: 0 }, generated);
  const svc = service(source);
  const cold = await stallDuring(() => timed(() => svc.search(request(queries[0]!, sessionId))));
  const coldRead = hostReadWithin(0, Infinity);
  // The index builds in the background after the first search; wait for it (sliced, yielding).
  const build = await stallDuring(() => timed(() => svc.buildIndex(sessionId)));
  const entry = build.value.value!;
  // A second build on a fresh service over the messages already read: its time is the build
  // alone, and the heap it adds is what one index holds (the first search's garbage is gone).
  const heapBefore = await heapMb();
  const fresh = service(source);
  const buildAgain = await timed(() => fresh.buildIndex(sessionId));
  const freshEntry = buildAgain.value!;
  const heapAfter = await heapMb();

  const warmTimes: number[] = [];
  for (let round = 0; round < 5; round++) {
    for (const q of queries) warmTimes.push((await timed(() => svc.search(request(q, sessionId)))).ms);
  }
  const append = await stallDuring(() =>
    timed(async () => {
      source.append(sessionId, extraMessage(sessionId, "the walrus protocol handshake failed after retryPolicyTimeout"));
      return svc.search(request("walrus handshake", sessionId));
    }),
  );
  const appendHits = append.value.value.results.length;

  console.log(
    [
      `\n[${runtime}] session of ${messages} messages: ${f(mb, 2)} MB text (${chars} UTF-16 units, ${texts.length} docs)`,
      `  cold first search     ${f(cold.value.ms)} ms  = ${f(cold.value.ms / mb)} ms/MB   (${cold.value.value.results.length} results; read ${f(coldRead)} ms; stall ${f(cold.stallMs)} ms own, ${f(cold.withReadMs)} ms with the read)`,
      `  full index build      ${f(build.value.ms)} ms wall after the cold search (sliced; stall ${f(build.stallMs)} ms, longest slice ${f(entry.stats.longestSliceMs)} ms); fresh build ${f(buildAgain.ms)} ms = ${f(buildAgain.ms / mb)} ms/MB`,
      `  warm search           median ${f(median(warmTimes), 2)} ms, max ${f(Math.max(...warmTimes), 2)} ms over ${warmTimes.length} searches`,
      `  append one + search   ${f(append.value.ms, 2)} ms (found ${appendHits}); ${f((100 * append.value.ms) / cold.value.ms, 2)}% of cold search, ${f((100 * append.value.ms) / buildAgain.ms, 2)}% of full build; stall ${f(append.stallMs)} ms`,
      `  heap held by index    ${f(heapAfter - heapBefore)} MB measured = ${f((heapAfter - heapBefore) / mb, 2)} MB per MB (estimate ${f(freshEntry.bytes() / 1e6)} MB = ${f((100 * freshEntry.bytes()) / 1e6 / (heapAfter - heapBefore), 0)}% of measured)`,
      `  linear scan floor     ${f(scanMs, 1)} ms (${f(scanMs / mb, 2)} ms/MB) lowercase+indexOf; ${f(preMs, 2)} ms (${f(preMs / mb, 2)} ms/MB) pre-lowered  [${found}]`,
    ].join("\n"),
  );
}

async function projectBench(sessions: number, targetMb: number): Promise<void> {
  const source = new JsonSource();
  let bytes = 0;
  const perSession = Math.max(10, Math.round((targetMb * 1e6) / sessions / 760));
  for (let s = 0; s < sessions; s++) {
    const id = `ses_p${String(s).padStart(4, "0")}`;
    const messages = generateSession({ messages: perSession, seed: 1000 + s, hugeOutputs: s % 20 === 0 ? 1 : 0, sessionId: id });
    for (const m of messages) for (const d of messageDocs(m, visibility, DEFAULT_TUNING.chunkChars)) bytes += byteLength(d.text);
    source.add({ id, title: `session ${s}`, created: s, updated: s }, messages);
  }
  const svc = service(source);
  const heapBefore = await heapMb();
  const cold = await stallDuring(() => timed(() => svc.search(request("token bucket limiter", "", "project"))));
  const projectReads = hostReadWithin(0, Infinity);
  const second = await timed(() => svc.search(request("refund policy", "", "project")));
  const heapAfter = await heapMb();
  const sessionsRanked = await timed(() => svc.sessions({ query: "rate limiter", limit: 10, includeChildren: true }));
  console.log(
    [
      `\n[${runtime}] project of ${sessions} sessions: ${f(bytes / 1e6, 1)} MB text (${perSession} messages each)`,
      `  cold project search   ${f(cold.value.ms)} ms, ${cold.value.value.results.length} results, unsearched ${cold.value.value.unsearched ?? 0} (partial=${(cold.value.value.unsearched ?? 0) > 0}); reads ${f(projectReads)} ms; stall ${f(cold.stallMs)} ms own, ${f(cold.withReadMs)} ms with a read`,
      `  next project search   ${f(second.ms)} ms, unsearched ${second.value.unsearched ?? 0}`,
      `  history_sessions(query) ${f(sessionsRanked.ms)} ms, ${sessionsRanked.value.sessions.length} sessions`,
      `  heap after (messages+indexes so far) +${f(heapAfter - heapBefore)} MB`,
    ].join("\n"),
  );
}

/** The alternatives bench's query and its three alternatives (words generate.ts writes). */
const FUSED_QUERY = "why did the token bucket limiter reject requests";
const ALTERNATIVES = ["ERROR webfetch", "computeLineItemTotals", "refund policy"];

/** Per round: the query alone, then with its alternatives, each timed by `run`; printed with the ratio. */
async function alternated(label: string, rounds: number, run: (alternatives?: string[]) => Promise<number>): Promise<void> {
  const ratios: number[] = [];
  const lines: string[] = [];
  // A first round, not counted, compiles the code paths (the plugin lives in a long-running host).
  await run();
  await run(ALTERNATIVES);
  for (let round = 0; round < rounds; round++) {
    const alone = await run();
    const fused = await run(ALTERNATIVES);
    ratios.push(fused / alone);
    lines.push(`${f(alone, 1)} → ${f(fused, 1)}`);
  }
  console.log(
    `  ${label.padEnd(30)} ms alone → with 3 alternatives: ${lines.join(", ")}; ratio ${ratios.map((r) => f(r, 2)).join(", ")} (median ${f(median(ratios), 2)})`,
  );
}

async function alternativesBench(messages: number, sessions: number, targetMb: number, rounds: number): Promise<void> {
  const sessionId = `ses_bench_${messages}`;
  const generated = generateSession({ messages, seed: 3, hugeOutputs: Math.max(1, Math.round(messages / 2000)), sessionId });
  console.log(`\n[${runtime}] alternatives: "${FUSED_QUERY}" + ${JSON.stringify(ALTERNATIVES)}; session of ${messages} messages`);
  // Cold: a fresh source and service each search (the session read, then scanned).
  await alternated("cold, one session", rounds, async (alternatives) => {
    const source = new JsonSource();
    source.add({ id: sessionId, title: "bench", created: 0, updated: 0 }, generated);
    return (await timed(() => service(source).search(request(FUSED_QUERY, sessionId, "session", alternatives)))).ms;
  });
  const source = new JsonSource();
  source.add({ id: sessionId, title: "bench", created: 0, updated: 0 }, generated);
  const warm = service(source);
  await warm.buildIndex(sessionId);
  await alternated("warm, one session (median of 5)", rounds, async (alternatives) => {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) times.push((await timed(() => warm.search(request(FUSED_QUERY, sessionId, "session", alternatives)))).ms);
    return median(times);
  });
  const project = new JsonSource();
  const perSession = Math.max(10, Math.round((targetMb * 1e6) / sessions / 760));
  const ids: string[] = [];
  for (let s = 0; s < sessions; s++) {
    const id = `ses_p${String(s).padStart(4, "0")}`;
    ids.push(id);
    project.add(
      { id, title: `session ${s}`, created: s, updated: s },
      generateSession({ messages: perSession, seed: 1000 + s, hugeOutputs: s % 20 === 0 ? 1 : 0, sessionId: id }),
    );
  }
  console.log(`  project of ${sessions} sessions, ${perSession} messages each`);
  // Cold: every session read again (parsed) and scanned by a fresh service.
  await alternated("cold, project scope", rounds, async (alternatives) => {
    for (const id of ids) project.forget(id);
    return (await timed(() => service(project).search(request(FUSED_QUERY, "", "project", alternatives)))).ms;
  });
  // Next: the sessions read (the source keeps them), scanned again by a fresh service.
  await alternated(
    "next, project scope",
    rounds,
    async (alternatives) => (await timed(() => service(project).search(request(FUSED_QUERY, "", "project", alternatives)))).ms,
  );
  await alternated("history_sessions(query), next", rounds, async (alternatives) => {
    const asked = { query: FUSED_QUERY, limit: 10, includeChildren: true, ...(alternatives ? { alternatives } : {}) };
    return (await timed(() => service(project).sessions(asked))).ms;
  });
}

// BENCH_ONLY=sessions or BENCH_ONLY=project runs one half.
const ONLY = process.env.BENCH_ONLY;
console.log(`search bench on ${runtime}${QUICK ? " (quick)" : ""}`);
// "Cold" is about the session (never read, never indexed), not the process: the plugin lives
// in a long-running host. One search on a small unrelated session first compiles the code
// paths; its time is printed so the process-cold cost is visible too.
{
  const source = new JsonSource();
  const id = "ses_warmup";
  source.add({ id, title: "warm-up", created: 0, updated: 0 }, generateSession({ messages: 60, seed: 99, hugeOutputs: 0, sessionId: id }));
  const first = await timed(() => service(source).search(request("warm up the search path", id)));
  console.log(`process-cold first search (60-message warm-up session): ${f(first.ms)} ms`);
}
if (ONLY === "alternatives") {
  await alternativesBench(scale(10000), QUICK ? 20 : 200, QUICK ? 5 : 50, Number(process.env.BENCH_ROUNDS ?? 3));
  process.exit(0);
}
if (ONLY !== "project") {
  for (const [n, seed] of [
    [200, 1],
    [2000, 2],
    [10000, 3],
  ] as const) {
    await sessionBench(scale(n), seed);
  }
}
if (ONLY !== "sessions") await projectBench(QUICK ? 20 : 200, QUICK ? 5 : 50);
process.exit(0);
