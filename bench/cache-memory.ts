// What the search caches hold against what the heap holds, over many-session searches of a big
// store (issue 24's memory bound): after each global search, the session cache's and the index
// cache's own byte estimates, the heap after collection and the process's RSS. Projection off, so
// every search reads sessions until its budget ends, as common-word searches do. In the host's Bun:
//   BUN_BE_BUN=1 node_modules/opencode-linux-x64/bin/opencode bench/cache-memory.ts <XDG_DATA_HOME> [searches]
import { readFileSync } from "node:fs";
import { defaultConfig, type EngramConfig, WIRING_DEFAULTS } from "../src/config/schema.ts";
import { toolVisibility } from "../src/history/tool-visibility.ts";
import { CachedHistorySource } from "../src/store/cached-source.ts";
import { dataDir } from "../src/store/sqlite.ts";
import { isStoreProblem, openStore } from "../src/store/store-file.ts";
import { createInspectableSearchService } from "../src/search/service.ts";
import { heapMb } from "./heap.ts";

const [xdgData, count] = process.argv.slice(2);
if (!xdgData) throw new Error("usage: cache-memory.ts <XDG_DATA_HOME> [searches]");
const searches = Number(count ?? 12);
const store = await openStore(dataDir({ XDG_DATA_HOME: xdgData }));
if (isStoreProblem(store)) throw new Error(store.message);
const config: EngramConfig = { ...defaultConfig(), projection: { ...defaultConfig().projection, enable: false } };
const visibility = toolVisibility(config.show_tool_input, config.show_tool_output);
const source = new CachedHistorySource(store.reader, { ...WIRING_DEFAULTS.messageCache, maxBytes: config.store.cache_bytes }, store.decode);
const service = createInspectableSearchService({ source, config: () => config, visibility: () => visibility });
const QUERIES = [
  "timezone aware datetime",
  "pytest fixture teardown",
  "migration squash operations",
  "separability matrix nested compound",
  "astropy units quantity",
  "django queryset filter",
  "sympy simplify expression",
  "matplotlib axis label",
  "requests session retry",
  "sphinx autodoc warning",
  "xarray dataset merge",
  "scikit learn pipeline",
];
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? 0) / 1024;
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
console.log(
  `caches: store ${mb(config.store.cache_bytes)} MiB, search ${mb(config.search.cache_bytes)} MiB; start heap ${(await heapMb()).toFixed(0)} MB, RSS ${rssMb().toFixed(0)} MB`,
);
console.log("| search | ms | unsearched | session cache (est. MiB) | index cache (est. MiB) | heap after GC (MB) | RSS (MB) |");
console.log("|---|---|---|---|---|---|---|");
for (let i = 0; i < searches; i++) {
  const started = performance.now();
  const answer = await service.search({
    query: QUERIES[i % QUERIES.length]!,
    callerSessionId: "",
    scope: "global",
    types: ["text", "reasoning", "tool"],
    limit: 10,
  });
  const ms = performance.now() - started;
  const heap = await heapMb();
  console.log(
    `| ${i + 1} | ${ms.toFixed(0)} | ${answer.unsearched ?? 0} | ${mb(source.cachedBytes)} | ${mb(service.cache.totalWeight())} | ${heap.toFixed(0)} | ${rssMb().toFixed(0)} |`,
  );
}
store.close();
