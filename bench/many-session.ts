// Sessions and messages read and time taken by common-word global searches over a real store,
// reading every session against ranking from the store's projection (issue 40), and whether the
// answers are the same. In the host's Bun (bun:sqlite):
//   BUN_BE_BUN=1 node_modules/opencode-linux-x64/bin/opencode bench/many-session.ts <XDG_DATA_HOME> <cache dir> [budget ms | build]
// The store is opened read-only; the projection is built into `cache dir` (kept: a second run
// reuses it). Each query is asked as history_search asks it by default (global, text and tool,
// limit 10) and as history_sessions does (global, limit 5), by a caller outside the store and by
// the store's newest session (whose own session is read first, whole, as the host's caller's is).
// `budget ms`: the many-session budget of every search (default 60 s: every search completes);
// the searches reading every session always have 10 min, their answers are the reference (each
// printed as a digest, to compare across runs). `build`: only build (or check) the projection;
// `no-reference`: no search reading every session; `searches-only`: no history_sessions;
// `sessions-only`: only history_sessions;
// `cold-only`: each search through the projection once;
// `alternatives`: instead, each query through the projection alone and with three alternatives
// (issue 51), cold (a fresh service) and asked again, three alternating rounds, with the ratios,
// the messages read from the store and a digest of each answer; `free-reads` with it: the search
// with alternatives reads no message from the store (each read once before, by an ask not
// counted), the query alone as usual: what no fewer reads can beat.

import { createHash } from "node:crypto";
import { defaultConfig, type EngramConfig, WIRING_DEFAULTS } from "../src/config/schema.ts";
import { toolVisibility } from "../src/history/tool-visibility.ts";
import type { HistoryMessage } from "../src/history/types.ts";
import { CachedHistorySource } from "../src/store/cached-source.ts";
import { storeFeed } from "../src/projection/feed.ts";
import { ProjectionBuilder } from "../src/projection/builder.ts";
import { isStoreProblem, openStore, type Store } from "../src/store/store-file.ts";
import { dataDir } from "../src/store/sqlite.ts";
import { createSearchService, type SearchService } from "../src/search/api.ts";
import { parseQuery } from "../src/search/text/query.ts";
import { DEFAULT_TUNING } from "../src/search/tuning.ts";

const [xdgData, cacheDir, budgetArg, ...flags] = process.argv.slice(2);
if (!xdgData || !cacheDir)
  throw new Error(
    "usage: many-session.ts <XDG_DATA_HOME> <cache dir> [budget ms | build] [no-reference] [searches-only | sessions-only] [cold-only] [alternatives [free-reads]]",
  );
const opened = await openStore(dataDir({ XDG_DATA_HOME: xdgData }));
if (isStoreProblem(opened)) throw new Error(opened.message);
const store: Store = opened;

const SEARCHES = ["separability matrix nested compound", "timezone aware datetime", "pytest fixture teardown", "migration squash operations"];
const SESSIONS = ["astropy units", "django queryset"];

function configWith(budgetMs: number): EngramConfig {
  const config = defaultConfig();
  config.search.project_time_budget_ms = budgetMs;
  return config;
}
const config = configWith(60_000);
const visibility = toolVisibility(config.show_tool_input, config.show_tool_output);

const projection = new ProjectionBuilder({
  feed: storeFeed(store),
  enabled: () => true,
  visibility: () => visibility,
  visibilityKey: () => JSON.stringify([config.show_tool_input, config.show_tool_output]),
  tuning: DEFAULT_TUNING,
  pause: () => undefined,
  log: (level, message) => console.error(`${level}: ${message}`),
  dir: cacheDir,
});
const started = performance.now();
const status = await projection.untilCurrent("bench");
console.log(`projection ${status.state}: ${status.projected} sessions, ${((performance.now() - started) / 1000).toFixed(1)} s (built or checked)`);
if (budgetArg === "build") process.exit(0);

/** `free-reads`: single messages read once for every service (readsFree). */
const readOnce = new Map<string, Promise<HistoryMessage | undefined>>();
/**
 * A service over its own cached source (a cold cache each), counting the sessions and single
 * messages it loads; `readsFree`: a message read before by any such service costs a lookup.
 */
function service(
  finder: ProjectionBuilder | undefined,
  budgetMs: number,
  readsFree = false,
): { search: SearchService; loads: () => number; messages: () => number; source: CachedHistorySource<unknown> } {
  const source = new CachedHistorySource(store.reader, { ...WIRING_DEFAULTS.messageCache, maxBytes: config.store.cache_bytes }, store.decode);
  let loads = 0;
  let messages = 0;
  const load = source.loadMessages.bind(source);
  source.loadMessages = (sessionId: string): Promise<HistoryMessage[]> => {
    loads++;
    return load(sessionId);
  };
  const loadOne = source.loadMessage.bind(source);
  source.loadMessage = (sessionId: string, messageId: string): Promise<HistoryMessage | undefined> => {
    messages++;
    if (!readsFree) return loadOne(sessionId, messageId);
    const key = `${sessionId}\u0000${messageId}`;
    let held = readOnce.get(key);
    if (!held) readOnce.set(key, (held = loadOne(sessionId, messageId)));
    return held;
  };
  const own = configWith(budgetMs);
  return {
    search: createSearchService({ source, config: () => own, visibility: () => visibility, ...(finder ? { finder } : {}) }),
    loads: () => loads,
    messages: () => messages,
    source,
  };
}

/** Three alternatives per query of the bench, in the words such histories hold (issue 51's bench). */
const ALTERNATIVES: Record<string, string[]> = {
  "separability matrix nested compound": ["separability_matrix", "CompoundModel", "_cstack"],
  "timezone aware datetime": ["tzinfo", "USE_TZ", "make_aware"],
  "pytest fixture teardown": ["yield fixture", "addfinalizer", "conftest.py"],
  "migration squash operations": ["squashmigrations", "optimizer.py", "CreateModel AlterField"],
  "astropy units": ["Quantity", "UnitConversionError", "u.Unit"],
  "django queryset": ["QuerySet.filter", "annotate aggregate", "values_list"],
};

const budget = Number(budgetArg ?? 60_000);
if (flags.includes("alternatives")) {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  for (const query of [...SEARCHES, ...SESSIONS]) {
    /** `asked`, as `query` is asked (a search or history_sessions), with `alternatives` if given: its time, messages read and answer. */
    const askAs = async (which: ReturnType<typeof service>, asked: string, alternatives?: string[]) => {
      const more = alternatives ? { alternatives } : {};
      const read = which.messages();
      const t = performance.now();
      let key: string[];
      if (SEARCHES.includes(query)) {
        const answer = await which.search.search({
          query: asked,
          ...more,
          callerSessionId: "ses_outside",
          scope: "global",
          types: ["text", "tool"],
          limit: 10,
        });
        key = answer.results.map((r) => `${r.sessionId} ${r.message.id} ${r.score} ${JSON.stringify(r.hits)}`);
      } else {
        const answer = await which.search.sessions({ query: asked, ...more, limit: 5, includeChildren: true, global: true, callerSessionId: "ses_outside" });
        key = answer.sessions.map((r) => `${r.session.id} ${JSON.stringify(r.snippet)}`);
      }
      const ms = performance.now() - t;
      return { ms, read: which.messages() - read, digest: createHash("sha1").update(key.join("\n")).digest("hex").slice(0, 8) };
    };
    const ratios = { cold: [] as number[], again: [] as number[] };
    const lines: string[] = [];
    const reads = new Set<string>();
    const digests = new Set<string>();
    const readsFree = flags.includes("free-reads");
    if (readsFree) await askAs(service(projection, budget, true), query, ALTERNATIVES[query]);
    for (let round = 0; round < 3; round++) {
      const alone = service(projection, budget);
      const fused = service(projection, budget, readsFree);
      const a = [await askAs(alone, query), await askAs(alone, query)];
      const b = [await askAs(fused, query, ALTERNATIVES[query]), await askAs(fused, query, ALTERNATIVES[query])];
      ratios.cold.push(b[0]!.ms / a[0]!.ms);
      ratios.again.push(b[1]!.ms / a[1]!.ms);
      lines.push(`${a.map((x) => x.ms.toFixed(0)).join("/")} → ${b.map((x) => x.ms.toFixed(0)).join("/")}`);
      reads.add(`${a.map((x) => x.read).join("/")} → ${b.map((x) => x.read).join("/")}`);
      digests.add(`${a[0]!.digest} ${b[0]!.digest}`);
    }
    // Each alternative asked alone (cold): what the phrasings cost without sharing.
    const each: Array<{ ms: number; read: number }> = [];
    for (const alternative of ALTERNATIVES[query]!) each.push(await askAs(service(projection, budget), alternative));
    const shown = (r: number[]) => `${r.map((x) => x.toFixed(2)).join(", ")} (median ${median(r).toFixed(2)})`;
    console.log(
      `${query.padEnd(36)} | ms cold/again alone → with 3 alternatives: ${lines.join(", ")} | ratio cold ${shown(ratios.cold)}; again ${shown(ratios.again)} | messages read ${[...reads].join(", ")} | answers ${[...digests].join(", ")} | each alternative alone, cold: ${each.map((x) => `${x.ms.toFixed(0)} ms ${x.read} read`).join(", ")}`,
    );
  }
  projection.close();
  store.close();
  process.exit(0);
}

const full = service(undefined, 600_000);
const cut = service(projection, budget);
const newest = (await full.search.sessions({ limit: 1, includeChildren: true, global: true, callerSessionId: "" })).sessions[0]!.session.id;

type Answer = { read: number; messages: number; ms: number; unsearched: number; key: string[] };
async function timed(
  which: { search: SearchService; loads: () => number; messages: () => number },
  ask: (s: SearchService) => Promise<{ unsearched?: number; key: string[] }>,
): Promise<Answer> {
  const loads = which.loads();
  const messages = which.messages();
  const t = performance.now();
  const answer = await ask(which.search);
  return { read: which.loads() - loads, messages: which.messages() - messages, ms: performance.now() - t, unsearched: answer.unsearched ?? 0, key: answer.key };
}
const digest = (a: Answer) => createHash("sha1").update(a.key.join("\n")).digest("hex").slice(0, 8);
const show = (a: Answer) =>
  `${String(a.read).padStart(4)} sessions + ${String(a.messages).padStart(3)} messages read ${a.ms.toFixed(0).padStart(6)} ms${a.unsearched ? ` (${a.unsearched} unsearched)` : ""}`;

console.log(
  `load average ${(await import("node:os"))
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}; cut budget ${budget} ms`,
);
for (const caller of ["ses_outside", newest]) {
  for (const query of flags.includes("searches-only") ? SEARCHES : flags.includes("sessions-only") ? SESSIONS : [...SEARCHES, ...SESSIONS]) {
    const ask = SEARCHES.includes(query)
      ? async (s: SearchService) => {
          const answer = await s.search({ query, callerSessionId: caller, scope: "global", types: ["text", "tool"], limit: 10 });
          return { unsearched: answer.unsearched, key: answer.results.map((r) => `${r.sessionId} ${r.message.id} ${r.score}`) };
        }
      : async (s: SearchService) => {
          const answer = await s.sessions({ query, limit: 5, includeChildren: true, global: true, callerSessionId: caller });
          return { unsearched: answer.unsearched, key: answer.sessions.map((r) => `${r.session.id} ${r.snippet}`) };
        };
    // The projection's part alone: which sessions hold a term, with their chunks.
    const scope = await cut.source.listEverySession(caller);
    let narrowMs = performance.now();
    const narrowed = await projection.narrow(scope, parseQuery(query, DEFAULT_TUNING).terms, new Set(caller === newest ? [caller] : []));
    narrowMs = performance.now() - narrowMs;
    const reference = flags.includes("no-reference") ? undefined : await timed(full, ask);
    const cold = await timed(cut, ask);
    const warm = flags.includes("cold-only") ? cold : await timed(cut, ask);
    const same = (a: Answer) => (reference === undefined ? "" : a.key.join("\n") === reference.key.join("\n") ? " equal" : " DIFFERENT");
    console.log(
      `${caller === newest ? "caller in store" : "caller outside"} | ${query.padEnd(36)} | every session: ${reference ? `${show(reference)} ${digest(reference)}` : "-"} | narrow ${narrowMs.toFixed(0)} ms, ${narrowed?.search.length} to read, ${narrowed?.projected.size} ranked from it | projection: ${show(cold)} ${digest(cold)}${same(cold)}, warm ${show(warm)}${same(warm)}`,
    );
  }
}
projection.close();
store.close();
