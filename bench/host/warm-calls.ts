// Warm calls through the plugin's real tool handlers, without the host: the plugin's reader and
// cache over a copy of the bench's database, each session's index built first, then the host
// bench's warm queries and a browse_turns, ROUNDS calls each (median wall, min wall, median CPU).
// CPU time is the steadier figure on a shared machine. Not part of `npm run bench:host`:
//   BUN_BE_BUN=1 node_modules/opencode-linux-x64/bin/opencode bench/host/warm-calls.ts
// (SIZES=4000,20000 picks the generated sessions, ROUNDS=7 the calls per figure)
import { copyFileSync, mkdirSync, mkdtempSync } from "node:fs";
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
import { ViewCache } from "../../src/history/view-cache.ts";
import { createHistorySearchTool } from "../../src/tools/search.ts";
import { createBrowseTurnsTool } from "../../src/tools/view-tools.ts";
import type { ToolDeps } from "../../src/tools/deps.ts";
import { benchData } from "./data.ts";

const data = await benchData(() => {});
const scratch = mkdtempSync(join(tmpdir(), "engram-profile-"));
mkdirSync(join(scratch, "opencode"));
copyFileSync(join(data.xdgData, "opencode", "opencode.db"), join(scratch, "opencode", "opencode.db"));
const db = join(scratch, "opencode");
const sdk: HistoryReader = {
  readAll: async () => [],
  readNewest: async () => [],
  readOne: async () => undefined,
  listSessions: async () => [],
  getSession: async (id) => ({ id, title: id, time: { created: 0, updated: 0 } }),
};
const reader = withFastPath(
  sdk,
  (probe) => openSqliteReader(db, probe),
  () => {},
);
const source = new CachedHistorySource(reader, { ...WIRING_DEFAULTS.messageCache, maxBytes: 512 * 1024 ** 2, pause: pauseIfDue });
const config = defaultConfig();
const visibility = toolVisibility([], []);
const views = new ViewCache();
const deps: ToolDeps = { config: () => config, visibility: () => visibility, source, views, directory: "/p" };
const service = createInspectableSearchService({ source, config: () => config, visibility: () => visibility, views });
const search = createHistorySearchTool(deps, service);
const browse = createBrowseTurnsTool(deps);
// The tool context's fields the handlers read (the generated sessions have no directory: nothing asks).
const context = { sessionID: "ses_caller", directory: "/p", worktree: "/p", ask: async () => {}, abort: new AbortController().signal } as never;
const WARM = ["token bucket limiter", "computeLineItemTotals", "无线耳机", "refund policy", "zzqx nothing matches this"]; // bench.ts's WARM_QUERIES
const ROUNDS = Number(process.env.ROUNDS ?? 7);
for (const size of (process.env.SIZES ?? "4000,20000").split(",")) {
  const g = data.generated[size]!;
  await service.buildIndex(g.id);
  await search.execute({ query: "warm up", session_id: g.id } as never, context);
  const measure = async (label: string, call: () => Promise<unknown>) => {
    const walls: number[] = [];
    const cpus: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await call();
      walls.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpus.push((c.user + c.system) / 1000);
    }
    walls.sort((a, b) => a - b);
    cpus.sort((a, b) => a - b);
    return { label, wall: walls[ROUNDS >> 1]!, wallMin: walls[0]!, cpu: cpus[ROUNDS >> 1]! };
  };
  const rows = [];
  for (const q of WARM) rows.push(await measure(`search ${q}`, () => search.execute({ query: q, session_id: g.id } as never, context)));
  rows.push(await measure("browse_turns", () => browse.execute({ session_id: g.id, num_before: 3 } as never, context)));
  const searches = rows
    .slice(0, WARM.length)
    .map((r) => r.wall)
    .sort((a, b) => a - b);
  console.log(`${size} msgs: warm search median-of-queries ${searches[2]!.toFixed(1)} ms`);
  for (const r of rows)
    console.log(
      `  ${r.label.padEnd(36)} median ${r.wall.toFixed(1).padStart(6)} ms  min ${r.wallMin.toFixed(1).padStart(6)} ms  cpu ${r.cpu.toFixed(1).padStart(6)} ms`,
    );
}
process.exit(0);
