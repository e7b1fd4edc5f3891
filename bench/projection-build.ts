// Where a projection build's time goes, outside a running host. First each session is read and
// cut and counted (sessionTerms) alone, timed apart; then the plugin's own ProjectionBuilder builds
// the projection of the store into a scratch cache folder, its feed and its file wrapped in
// timers, so its reads and its SQLite statements are timed apart from the rest (counting again,
// buffering, encoding). In the host's Bun (bun:sqlite):
//   BUN_BE_BUN=1 node_modules/opencode-linux-x64/bin/opencode bench/projection-build.ts <XDG_DATA_HOME> [sessions]
// `sessions`: only the newest that many (default all). The store is opened read-only. The build
// pauses as in the host (a turn of the event loop when the scheduler's slice is spent), and a
// timer probe prints the longest turn the event loop waited for (the build's longest slice, GC
// included).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig } from "../src/config/schema.ts";
import { toolVisibility } from "../src/history/tool-visibility.ts";
import { type ProjectionFeed, storeFeed } from "../src/projection/feed.ts";
import { sessionTerms } from "../src/search/projection-contract.ts";
import { openProjection } from "../src/projection/projection-db.ts";
import { ProjectionBuilder } from "../src/projection/builder.ts";
import { isStoreProblem, openStore } from "../src/store/store-file.ts";
import { dataDir, fileBytes } from "../src/store/sqlite.ts";
import { sliceSpent, yieldToLoop } from "../src/util/scheduler.ts";
import { DEFAULT_TUNING } from "../src/search/tuning.ts";

const [xdgData, limit] = process.argv.slice(2);
if (!xdgData) throw new Error("usage: projection-build.ts <XDG_DATA_HOME> [sessions]");
const store = await openStore(dataDir({ XDG_DATA_HOME: xdgData }));
if (isStoreProblem(store)) throw new Error(store.message);
const cache = mkdtempSync(join(tmpdir(), "engram-projection-bench-"));

// Wall time and CPU time (the machine is shared: CPU time says what the work costs).
const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
const spent = { read: 0, stamp: 0, write: 0 };
const cpu = { read: 0, stamp: 0, write: 0 };
/** The longest single call of each of the file's methods (a commit holds the loop for its whole length). */
const longestCall = new Map<string, number>();
let textUnits = 0;
let sessions = 0;
const timed = async <T>(phase: keyof typeof spent, work: () => Promise<T>): Promise<T> => {
  const start = performance.now();
  const startCpu = cpuMs();
  try {
    return await work();
  } finally {
    spent[phase] += performance.now() - start;
    cpu[phase] += cpuMs() - startCpu;
  }
};

const inner = storeFeed(store);
const feed: ProjectionFeed = {
  storePath: (probe) => inner.storePath(probe),
  sessions: async (probe) => {
    const all = (await inner.sessions(probe)).sort((a, b) => (b.updated ?? 0) - (a.updated ?? 0));
    return limit ? all.slice(0, Number(limit)) : all;
  },
  stamp: (id) => timed("stamp", () => inner.stamp(id)),
  stamps: (ids) => timed("stamp", () => inner.stamps(ids)),
  messages: (id, options) => timed("read", () => inner.messages(id, options)),
  watermark: () => inner.watermark(),
  changedSince: (mark) => inner.changedSince(mark),
};

/** Every method of the projection file timed as writing (its reads are a few lookups a session). */
function timedDb<T extends object>(db: T): T {
  return new Proxy(db, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const start = performance.now();
        const startCpu = cpuMs();
        try {
          const out = (value as (...a: unknown[]) => unknown).apply(target, args);
          if (key === "complete" || key === "putSession") countProjected(args[0]);
          return out;
        } finally {
          longestCall.set(String(key), Math.max(longestCall.get(String(key)) ?? 0, performance.now() - start));
          spent.write += performance.now() - start;
          cpu.write += cpuMs() - startCpu;
        }
      };
    },
  });
}

/** A session's row written (the projection before segments: `complete`; with them: `putSession`). */
function countProjected(session: unknown): void {
  textUnits += (session as { length?: number }).length ?? 0;
  sessions++;
}

const config = defaultConfig();
const visibility = toolVisibility(config.show_tool_input, config.show_tool_output);
const projection = new ProjectionBuilder({
  feed,
  enabled: () => true,
  visibility: () => visibility,
  visibilityKey: () => JSON.stringify([config.show_tool_input, config.show_tool_output]),
  tuning: DEFAULT_TUNING,
  pause: () => (sliceSpent() ? yieldToLoop("build") : undefined),
  log: (level, message) => console.error(`${level}: ${message}`),
  dir: cache,
  open: async (path, identity) => {
    const opened = await openProjection(path, identity);
    return "db" in opened ? { ...opened, db: timedDb(opened.db) } : opened;
  },
});

// The phases alone.
const alone = { read: 0, terms: 0, readCpu: 0, termsCpu: 0, units: 0 };
for (const session of await feed.sessions("bench")) {
  let start = performance.now();
  let startCpu = cpuMs();
  const messages = await inner.messages(session.id, {});
  alone.read += performance.now() - start;
  alone.readCpu += cpuMs() - startCpu;
  start = performance.now();
  startCpu = cpuMs();
  alone.units += (await sessionTerms(session.id, messages, visibility, DEFAULT_TUNING)).length;
  alone.terms += performance.now() - start;
  alone.termsCpu += cpuMs() - startCpu;
}
const aloneMb = alone.units / 1e6;
const line = (name: string, mb: number, wall: number, cpuTime: number) =>
  console.log(
    `${name.padEnd(14)} wall ${(wall / 1000).toFixed(1)} s (${(mb / (wall / 1000)).toFixed(2)} MB/s)  cpu ${(cpuTime / 1000).toFixed(1)} s (${(mb / (cpuTime / 1000)).toFixed(2)} MB/s)`,
  );
console.log(`alone: ${aloneMb.toFixed(1)} MB of searchable text`);
line("  read", aloneMb, alone.read, alone.readCpu);
line("  sessionTerms", aloneMb, alone.terms, alone.termsCpu);

let longestTurn = 0;
let probing = true;
// Peak heap and RSS during the build, sampled with the turn probe (after a collection before it).
const { Bun } = globalThis as { Bun?: { gc(full: boolean): void } };
const liveHeap = process.env.LIVE_HEAP === "1";
let lastCollection = 0;
Bun?.gc(true);
const heap0 = process.memoryUsage().heapUsed;
let peakHeap = heap0;
let peakRss = process.memoryUsage().rss;
const probe = (async () => {
  while (probing) {
    const start = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 5));
    longestTurn = Math.max(longestTurn, performance.now() - start - 5);
    // LIVE_HEAP=1: the heap held, after a full collection every 250 ms (when the collector runs
    // otherwise decides the plain peak; the CPU figures are off then).
    if (!liveHeap || performance.now() - lastCollection >= 250) {
      if (liveHeap) {
        Bun?.gc(true);
        lastCollection = performance.now();
      }
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    }
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }
})();
const rss0 = process.memoryUsage().rss;
const started = performance.now();
const startedCpu = cpuMs();
const status = await projection.untilCurrent("bench");
const total = performance.now() - started;
const totalCpu = cpuMs() - startedCpu;
projection.close();
probing = false;
await probe;
const mb = textUnits / 1e6;
console.log(`build, ${status.state}: ${sessions} sessions, ${mb.toFixed(1)} MB of searchable text, file ${(fileBytes(status.file ?? "") / 1e6).toFixed(1)} MB`);
line("  total", mb, total, totalCpu);
line("  read", mb, spent.read, cpu.read);
line("  rest (terms…)", mb, total - spent.read - spent.stamp - spent.write, totalCpu - cpu.read - cpu.stamp - cpu.write);
line("  sqlite", mb, spent.write, cpu.write);
line("  stamps", mb, spent.stamp, cpu.stamp);
console.log(`longest event-loop turn during the build ${longestTurn.toFixed(0)} ms`);
console.log(
  `longest calls: ${[...longestCall]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([name, ms]) => `${name} ${ms.toFixed(1)} ms`)
    .join(", ")}`,
);
console.log(`rss growth   ${((process.memoryUsage().rss - rss0) / 1e6).toFixed(0)} MB, peak +${((peakRss - rss0) / 1e6).toFixed(0)} MB`);
console.log(`heap peak${liveHeap ? " (live)" : ""}    +${((peakHeap - heap0) / 1e6).toFixed(0)} MB over the ${(heap0 / 1e6).toFixed(0)} MB before the build`);
rmSync(cache, { recursive: true, force: true });
