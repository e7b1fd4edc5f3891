// Where a call's time goes inside the plugin, without the host: the plugin's own reader, cache and
// search service over a copy of the bench's data folder, each phase timed with the longest
// synchronous stretch (timer-tick gap). Not part of `npm run bench:host`:
//   BUN_BE_BUN=1 node_modules/opencode-linux-x64/bin/opencode bench/host/plugin-profile.ts
// (BENCH_ONLY=sessions: the generated sessions only; BENCH_ONLY=project: the project only)
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig, WIRING_DEFAULTS } from "../../src/config/schema.ts";
import { toolVisibility } from "../../src/history/tool-visibility.ts";
import { CachedHistorySource } from "../../src/store/cached-source.ts";
import { withFastPath } from "../../src/store/fast-path-reader.ts";
import type { HistoryReader } from "../../src/store/reader.ts";
import { openSqliteReader } from "../../src/store/store-file.ts";
import { pauseIfDue } from "../../src/util/scheduler.ts";
import { createInspectableSearchService } from "../../src/search/service.ts";
import type { SearchRequest } from "../../src/search/types.ts";
import { benchData } from "./data.ts";

const data = await benchData((line) => console.log(line));
const scratch = mkdtempSync(join(tmpdir(), "engram-profile-"));
// Removed however the profile ends: it holds a copy of the bench's store (about 150 MB).
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));
mkdirSync(join(scratch, "opencode"));
copyFileSync(join(data.xdgData, "opencode", "opencode.db"), join(scratch, "opencode", "opencode.db"));
const db = join(scratch, "opencode");

// Sessions are listed from the database too (the host's list is an SDK call the profile has no host for).
// The project is the real corpus; the generated sessions are read by id only.
const sessions = data.corpus;
const sdk: HistoryReader = {
  readAll: async () => [],
  readNewest: async () => [],
  readOne: async () => undefined,
  listSessions: async () => sessions.map((id, i) => ({ id, title: id, time: { created: i, updated: i } })),
  getSession: async (id) => ({ id, title: id, time: { created: 0, updated: 0 } }),
};
const reader = withFastPath(
  sdk,
  // Opened with a session the store holds: the requests' caller ("ses_caller") is in none.
  () => openSqliteReader(db, Object.values(data.generated)[0]!.id),
  (level, message) => console.log(`${level}: ${message}`),
);
const source = new CachedHistorySource(reader, { ...WIRING_DEFAULTS.messageCache, maxBytes: 512 * 1024 ** 2, pause: pauseIfDue });
const config = defaultConfig();
const visibility = toolVisibility([], []);
const service = createInspectableSearchService({ source, config: () => config, visibility: () => visibility });

/**
 * Times `work` and its longest synchronous stretch (gap between timer ticks). On a loaded machine a
 * gap can be the OS running something else: the CPU this process used in its longest-CPU gap
 * tells the plugin's own stretch apart from waiting for a core.
 */
async function phase<T>(label: string, work: () => Promise<T>): Promise<T> {
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  let worst = 0;
  let worstCpu = 0;
  let running = true;
  const gap = () => {
    const t = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    worst = Math.max(worst, t - last);
    worstCpu = Math.max(worstCpu, (cpu.user + cpu.system) / 1000);
    last = t;
    lastCpu = process.cpuUsage();
  };
  const tick = () => {
    gap();
    if (running) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  const start = performance.now();
  const startCpu = process.cpuUsage();
  const value = await work();
  const used = process.cpuUsage(startCpu);
  running = false;
  gap();
  console.log(
    `  ${label.padEnd(36)} ${(performance.now() - start).toFixed(1).padStart(8)} ms (${((used.user + used.system) / 1000).toFixed(0)} ms CPU)   longest stretch ${worst.toFixed(1)} ms wall, ${worstCpu.toFixed(1)} ms CPU`,
  );
  return value;
}

const request = (query: string, sessionId?: string): SearchRequest => ({
  query,
  sessionId,
  callerSessionId: "ses_caller",
  scope: sessionId ? "session" : "project",
  types: ["text", "tool"],
  limit: 10,
});

const ONLY = process.env.BENCH_ONLY;
for (const [size, g] of ONLY === "project" ? [] : Object.entries(data.generated)) {
  console.log(`${size} messages, ${g.mb.toFixed(1)} MB`);
  await phase("cold search (read + scan)", () => service.search(request("token bucket limiter", g.id)));
  // Searched again and again (each awaited, as a model calls the tool) while the first build runs.
  const entry = service.cache.get(service.cache.keys().find((key) => key.startsWith(`${g.id}\u0000`))!)!;
  for (let i = 0; i < 5; i++) {
    const wasBuilt = entry.built;
    await phase(`search ${i + 1} during the first build${wasBuilt ? " (built)" : ""}`, () =>
      service.search(request(["refund policy", "computeLineItemTotals", "zzqx nothing", "token bucket", "ledger entry"][i]!, g.id)),
    );
  }
  await phase("index build (the rest)", () => service.buildIndex(g.id));
  for (let i = 0; i < 3; i++)
    await phase(`warm search ${i + 1}`, () => service.search(request(["refund policy", "computeLineItemTotals", "zzqx nothing"][i]!, g.id)));
  await phase("loadMessages alone (unchanged)", () => source.loadMessages(g.id));
}
if (ONLY === "sessions") process.exit(0);
console.log(`project: ${data.corpus.length} sessions, ${data.corpusMb.toFixed(1)} MB`);
await phase("first project search", () => service.search(request("separability matrix nested compound")));
await phase("next project search (builds running)", () => service.search(request("migration squash operations")));
await phase("every session's index built", async () => {
  for (const id of data.corpus) await service.buildIndex(id);
});
for (const query of ["timezone aware datetime", "pytest fixture teardown"])
  await phase("next project search (indexes built)", () => service.search(request(query)));
await phase("history_sessions(query)", () => service.sessions({ query: "astropy units", limit: 10, includeChildren: true }));
process.exit(0);
