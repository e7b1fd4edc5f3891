// `npm run bench:host`: the plugin inside the real host (the e2e harness's OpenCode with the
// scripted mock model), against a no-op plugin whose tools answer at once, in the same run.
// Prints figures, never fails. Runs in the host's own Bun (bun:sqlite seeds the data folder).
//   BENCH_ROUNDS=n   plugin/no-op pairs (default 1)
//   BENCH_ONLY=sessions|project   one half

import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startHost, type Host } from "../../e2e/harness/host.ts";
import type { HostToolPart } from "../../e2e/harness/types.ts";
import { findToolPart } from "../../e2e/harness/tool-call.ts";
import { benchData, pinProjectId, type BenchData } from "./data.ts";

// This process is the host binary acting as Bun; the hosts it starts must not inherit that.
delete process.env.BUN_BE_BUN;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? "1");
const ONLY = process.env.BENCH_ONLY;
const HERE = fileURLToPath(new URL(".", import.meta.url));
const NOOP = pathToFileURL(join(HERE, "noop-plugin.ts")).href;
const BUILD_WAIT_MS = Number(process.env.BENCH_BUILD_WAIT_MS ?? "40000");
const WARM_QUERIES = ["token bucket limiter", "computeLineItemTotals", "无线耳机", "refund policy", "zzqx nothing matches this"];

type Variant = "plugin" | "no-op";
/** Figure name → milliseconds (or MB for memory). */
type Figures = Map<string, number>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** Polls a cheap host route while `work` runs; the longest answer is the loop's longest stall. */
async function withStallProbe<T>(host: Host, path: string, work: () => Promise<T>): Promise<{ value: T; stallMs: number }> {
  let running = true;
  let worst = 0;
  const probe = (async () => {
    while (running) {
      const start = performance.now();
      await host.request("GET", path).catch(() => undefined);
      worst = Math.max(worst, performance.now() - start);
      await sleep(10);
    }
  })();
  try {
    const value = await work();
    return { value, stallMs: worst };
  } finally {
    running = false;
    await probe;
  }
}

function toolTime(part: HostToolPart): number {
  const time = part.state.time as { start?: number; end?: number } | undefined;
  return time?.start !== undefined && time.end !== undefined ? time.end - time.start : NaN;
}

let callCount = 0;
/** The mock model calls `name(args)` in the driver session; the tool's time is the host's own stamp. */
async function call(host: Host, driver: string, name: string, args: Record<string, unknown>): Promise<{ ms: number; output: string }> {
  const callId = `call_bench_${++callCount}`;
  host.mock.push({ toolCalls: [{ id: callId, name, args }] }, { text: "ok" });
  await host.prompt(driver, `call ${name}`);
  const part = findToolPart(await host.messages(driver), callId);
  if (!part) throw new Error(`no tool part for ${callId}`);
  if (part.state.status !== "completed") console.log(`  (${name} ended ${part.state.status}: ${String(part.state.error).slice(0, 200)})`);
  return { ms: toolTime(part), output: String(part.state.output ?? "") };
}

function rssMb(pid: number | undefined): { rss: number; peak: number } {
  if (pid === undefined || !existsSync(`/proc/${pid}/status`)) return { rss: NaN, peak: NaN };
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

async function seed(data: BenchData, dirs: { directory: string; xdgData: string }): Promise<void> {
  const from = join(data.xdgData, "opencode");
  const to = join(dirs.xdgData, "opencode");
  mkdirSync(to, { recursive: true });
  for (const name of ["opencode.db", "opencode.db-wal", "opencode.db-shm"]) if (existsSync(join(from, name))) copyFileSync(join(from, name), join(to, name));
  pinProjectId(dirs.directory);
  // Session lists are per directory: the corpus moves into this host's project folder (the project
  // scope); the generated sessions stay elsewhere and are read by id.
  const specifier = "bun:sqlite";
  const { Database } = (await import(/* @vite-ignore */ specifier)) as {
    Database: new (path: string) => { query(sql: string): { run(...p: unknown[]): unknown }; close(): void };
  };
  const db = new Database(join(to, "opencode.db"));
  const generated = Object.values(data.generated).map((g) => g.id);
  db.query(`UPDATE session SET directory = ? WHERE id NOT IN (${generated.map(() => "?").join(", ")})`).run(dirs.directory, ...generated);
  db.close();
}

async function runVariant(variant: Variant, data: BenchData): Promise<Figures> {
  const figures: Figures = new Map();
  let seeded: Promise<void> = Promise.resolve();
  const host = await startHost({
    plugin: variant === "plugin" ? undefined : NOOP,
    // The generated sessions live in another directory, read by id: allow that as a user who
    // approved it would, or the plugin's ask-by-default would wait for an answer nobody gives.
    config: { permission: { "*": "allow", doom_loop: "allow", external_directory: "allow", engram_other_projects: "allow" } },
    prepare: (dirs) => {
      seeded = seed(data, dirs);
    },
  });
  await seeded;
  try {
    const driver = (await host.createSession({ title: "bench driver" })).id;
    const probePath = `/session/${driver}`;
    // The first tool call of a host compiles the plugin's code paths: not a figure.
    await call(host, driver, "history_sessions", { limit: 1 });
    if (ONLY !== "project") {
      for (const [size, session] of Object.entries(data.generated)) {
        const key = `${size} msgs (${session.mb.toFixed(1)} MB)`;
        const args = (query: string) => ({ query, session_id: session.id });
        const cold = await withStallProbe(host, probePath, () => call(host, driver, "history_search", args("token bucket limiter")));
        figures.set(`${key}: cold search`, cold.value.ms);
        figures.set(`${key}: cold search ms/MB`, cold.value.ms / session.mb);
        // The index builds in the background after the first search: the stall probe stays on.
        const settle = await withStallProbe(host, probePath, () => sleep(4000 + 400 * session.mb));
        figures.set(`${key}: stall, cold search`, cold.stallMs);
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
          parts: [{ type: "text", text: `the walrus protocol handshake failed after retryPolicyTimeout ${callCount}` }],
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
      figures.set(`${key}: first search unsearched`, Number(/"unsearched_sessions":(\d+)/.exec(first.value.output)?.[1] ?? 0));
      figures.set(`${key}: stall, first search`, first.stallMs);
      const early = await call(host, driver, "history_search", { query: "astropy coordinates frame", scope: "project" });
      figures.set(`${key}: second search at once`, early.ms);
      figures.set(`${key}: second search at once unsearched`, Number(/"unsearched_sessions":(\d+)/.exec(early.output)?.[1] ?? 0));
      // The searched sessions' indexes build in the background (one session at a time).
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
const rounds: Array<{ plugin: Figures; noop: Figures }> = [];
for (let round = 1; round <= ROUNDS; round++) {
  const plugin = await runVariant("plugin", data);
  const noop = await runVariant("no-op", data);
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
