// `npm run bench:host`: the plugin inside the real host (the e2e harness's OpenCode with the
// scripted mock model), against a no-op plugin whose tools answer at once, in the same run.
// Prints figures, never fails. Runs in the host's own Bun (bun:sqlite seeds the data folder).
//   BENCH_ROUNDS=n   plugin/no-op pairs (default 1)
//   BENCH_ONLY=sessions|project|heavy|heavy10k   one part. heavy: the heavy-user round
//       (heavy-round.ts) on 3,000 sessions in 30 projects; heavy10k: the same round on 10,000
//       sessions in 50 projects (about 860 MB of text, a 2 GB store built once, about a minute;
//       the round itself takes 15–30 min). The default (no BENCH_ONLY) runs sessions, project and
//       heavy, not heavy10k.
//   BENCH_ENGRAM_CONFIG='{…}'   the plugin's config (opencode-engram.jsonc) for the run
//   BENCH_SIZES=4000   the sessions part on these generated sessions only (default 4000,20000)
//   BENCH_STALL_TRACE=1   prints each cold search's slow probe answers against the tool's run

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { benchData, type BenchData } from "./data.ts";
import { HEAVY_10K, HEAVY_3K, heavyData } from "./heavy-data.ts";
import { runHeavy } from "./heavy-round.ts";
import { call, type Figures, median, rssMb, sleep, startBenchHost, traceStalls, unsearchedOf, type Variant, withStallProbe } from "./measure.ts";

// This process is the host binary acting as Bun; the hosts it starts must not inherit that.
delete process.env.BUN_BE_BUN;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? "1");
const ONLY = process.env.BENCH_ONLY;
const SIZES = process.env.BENCH_SIZES?.split(",");
const HERE = fileURLToPath(new URL(".", import.meta.url));
const NOOP = pathToFileURL(join(HERE, "noop-plugin.ts")).href;
const BUILD_WAIT_MS = Number(process.env.BENCH_BUILD_WAIT_MS ?? "40000");
/** How long after the last call the host's memory is sampled again (the projection's passes done). */
const SETTLED_MS = 30_000;
const WARM_QUERIES = ["token bucket limiter", "computeLineItemTotals", "无线耳机", "refund policy", "zzqx nothing matches this"];

async function runVariant(variant: Variant, data: BenchData): Promise<Figures> {
  const figures: Figures = new Map();
  // The corpus moves into this host's project folder (the project scope); the generated sessions
  // stay elsewhere and are read by id.
  const generated = Object.values(data.generated).map((g) => g.id);
  const host = await startBenchHost(variant, NOOP, data.xdgData, `id NOT IN (${generated.map(() => "?").join(", ")})`, ...generated);
  try {
    const driver = (await host.createSession({ title: "bench driver" })).id;
    const probePath = `/session/${driver}`;
    // The first tool call of a host compiles the plugin's code paths: not a figure.
    await call(host, driver, "history_sessions", { limit: 1 });
    if (ONLY !== "project") {
      for (const [size, session] of Object.entries(data.generated).filter(([size]) => SIZES === undefined || SIZES.includes(size))) {
        const key = `${size} msgs (${session.mb.toFixed(1)} MB)`;
        const args = (query: string) => ({ query, session_id: session.id });
        const cold = await withStallProbe(host, probePath, () => call(host, driver, "history_search", args("token bucket limiter")));
        figures.set(`${key}: cold search`, cold.value.ms);
        figures.set(`${key}: cold search ms/MB`, cold.value.ms / session.mb);
        // The index builds in the background after the first search: the stall probe stays on.
        const settle = await withStallProbe(host, probePath, () => sleep(4000 + 400 * session.mb));
        figures.set(`${key}: stall, cold search`, cold.stallMs);
        traceStalls(`${key} cold search`, cold.value, cold.slow, cold.cpu);
        figures.set(`${key}: stall, background build`, settle.stallMs);
        await call(host, driver, "history_search", args("warm up"));
        const warm: number[] = [];
        const warmStall = await withStallProbe(host, probePath, async () => {
          for (const query of WARM_QUERIES) warm.push((await call(host, driver, "history_search", args(query))).ms);
        });
        figures.set(`${key}: warm search (median)`, median(warm));
        figures.set(`${key}: warm search (max)`, Math.max(...warm));
        figures.set(`${key}: stall, warm searches`, warmStall.stallMs);
        await host.request("POST", `/session/${session.id}/message`, {
          noReply: true,
          parts: [{ type: "text", text: `the walrus protocol handshake failed after retryPolicyTimeout ${Date.now()}` }],
        });
        const appended = await withStallProbe(host, probePath, () => call(host, driver, "history_search", args("walrus handshake")));
        figures.set(`${key}: search after 1 appended msg`, appended.value.ms);
        figures.set(`${key}: stall, appended search`, appended.stallMs);
        const browse: number[] = [];
        for (let i = 0; i < 3; i++) browse.push((await call(host, driver, "history_browse_turns", { session_id: session.id, num_before: 3 })).ms);
        figures.set(`${key}: browse_turns (median)`, median(browse));
      }
    }
    if (ONLY !== "sessions") {
      const key = `project (${data.corpus.length} sessions, ${data.corpusMb.toFixed(1)} MB)`;
      const first = await withStallProbe(host, probePath, () =>
        call(host, driver, "history_search", { query: "separability matrix nested compound", scope: "project" }),
      );
      figures.set(`${key}: first search`, first.value.ms);
      figures.set(`${key}: first search unsearched`, unsearchedOf(first.value.output));
      figures.set(`${key}: stall, first search`, first.stallMs);
      const early = await call(host, driver, "history_search", { query: "astropy coordinates frame", scope: "project" });
      figures.set(`${key}: second search at once`, early.ms);
      figures.set(`${key}: second search at once unsearched`, unsearchedOf(early.output));
      // A quiet spell: the projection builds in the background (many-session searches start no index builds).
      const settle = await withStallProbe(host, probePath, () => sleep(BUILD_WAIT_MS));
      figures.set(`${key}: stall, background builds (${BUILD_WAIT_MS / 1000} s)`, settle.stallMs);
      const next = await withStallProbe(host, probePath, async () => {
        const times: number[] = [];
        for (const query of ["migration squash operations", "timezone aware datetime", "pytest fixture teardown"]) {
          times.push((await call(host, driver, "history_search", { query, scope: "project" })).ms);
        }
        return times;
      });
      figures.set(`${key}: next search after the builds (median of 3)`, median(next.value));
      const ranked: number[] = [];
      for (const query of ["astropy units", "django queryset"]) ranked.push((await call(host, driver, "history_sessions", { query, limit: 10 })).ms);
      figures.set(`${key}: history_sessions(query) (median of 2)`, median(ranked));
      figures.set(`${key}: stall, next searches`, next.stallMs);
    }
    const memory = rssMb(host.pid);
    figures.set("host RSS at the end (MB)", memory.rss);
    figures.set("host peak RSS (MB)", memory.peak);
    // The appended message has the projection's thread count its session again (the 30 MB one:
    // seconds, and a peak of its own): what the host holds once that is over.
    await sleep(SETTLED_MS);
    figures.set(`host RSS ${SETTLED_MS / 1000} s after the last call (MB)`, rssMb(host.pid).rss);
  } finally {
    await host.stop();
  }
  return figures;
}

function fmt(n: number): string {
  if (!Number.isFinite(n)) return "–";
  return n >= 100 ? n.toFixed(0) : n.toFixed(1);
}

function printTable(title: string, plugin: Figures, noop: Figures): void {
  console.log(`\n${title}`);
  console.log(`| figure | plugin | no-op | ratio | plugin − no-op |`);
  console.log(`|---|---|---|---|---|`);
  for (const [name, value] of plugin) {
    const floor = noop.get(name) ?? NaN;
    const ratio = floor > 0 ? `${(value / floor).toFixed(1)}×` : "–";
    console.log(`| ${name} | ${fmt(value)} | ${fmt(floor)} | ${ratio} | ${fmt(value - floor)} |`);
  }
}

const hostVersion = JSON.parse(readFileSync(join(HERE, "..", "..", "node_modules", "opencode-ai", "package.json"), "utf8")).version as string;
console.log(
  `bench:host — OpenCode ${hostVersion}, Bun ${(process.versions as Record<string, string>).bun}, ${ROUNDS} round(s); times in ms from the host's tool-part stamps, stalls = longest GET /session/:id answer`,
);
const data = await benchData((line) => console.log(line));
const heavySize = ONLY === undefined || ONLY === "heavy" ? HEAVY_3K : ONLY === "heavy10k" ? HEAVY_10K : undefined;
const heavy = heavySize ? await heavyData(data, heavySize, (line) => console.log(line)) : undefined;
const rounds: Array<{ plugin: Figures; noop: Figures }> = [];
for (let round = 1; round <= ROUNDS; round++) {
  const plugin: Figures = new Map();
  const noop: Figures = new Map();
  if (ONLY !== "heavy" && ONLY !== "heavy10k") {
    for (const [name, value] of await runVariant("plugin", data)) plugin.set(name, value);
    for (const [name, value] of await runVariant("no-op", data)) noop.set(name, value);
  }
  if (heavy) {
    const log = (line: string) => console.log(line);
    for (const [name, value] of await runHeavy("plugin", heavy, NOOP, log)) plugin.set(name, value);
    printTable(`round ${round}, heavy, the plugin's figures (the no-op's follow)`, plugin, new Map());
    for (const [name, value] of await runHeavy("no-op", heavy, NOOP, log)) noop.set(name, value);
  }
  rounds.push({ plugin, noop });
  printTable(`round ${round}`, plugin, noop);
}
if (ROUNDS > 1) {
  const mid = (pick: (r: { plugin: Figures; noop: Figures }) => Figures): Figures => {
    const out: Figures = new Map();
    for (const name of pick(rounds[0]!).keys()) out.set(name, median(rounds.map((r) => pick(r).get(name) ?? NaN)));
    return out;
  };
  printTable(
    `median of ${ROUNDS} rounds`,
    mid((r) => r.plugin),
    mid((r) => r.noop),
  );
}
process.exit(0);
