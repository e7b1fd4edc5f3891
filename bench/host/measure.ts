// What both bench rounds measure with: a tool call through the scripted model, the host's stall
// probe, its memory, and a host's data folder seeded from a cached store.

import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Host, startHost } from "../../e2e/harness/host.ts";
import { findToolPart } from "../../e2e/harness/tool-call.ts";
import type { HostToolPart } from "../../e2e/harness/types.ts";
import { pinProjectId, type SqliteDb, sqliteOpener } from "./data.ts";

/** The plugin under test, or the no-op plugin with the same tool names. */
export type Variant = "plugin" | "no-op";

/** Figure name → milliseconds (or MB for memory). */
export type Figures = Map<string, number>;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** A probe answer slower than this is kept in `slow` (when it was asked, epoch ms, and how long it took). */
const SLOW_MS = 20;

/** Polls a cheap host route while `work` runs; the longest answer is the loop's longest stall. */
export async function withStallProbe<T>(
  host: Host,
  path: string,
  work: () => Promise<T>,
): Promise<{ value: T; stallMs: number; slow: Array<{ at: number; ms: number }>; cpu: CpuSample[] }> {
  let running = true;
  let worst = 0;
  const slow: Array<{ at: number; ms: number }> = [];
  const cpu: CpuSample[] = [];
  const probe = (async () => {
    while (running) {
      if (TRACE && host.pid !== undefined) cpu.push(threadCpu(host.pid));
      const at = Date.now();
      const start = performance.now();
      await host.request("GET", path).catch(() => undefined);
      const ms = performance.now() - start;
      worst = Math.max(worst, ms);
      if (ms > SLOW_MS) slow.push({ at, ms });
      await sleep(10);
    }
  })();
  try {
    const value = await work();
    if (TRACE && host.pid !== undefined) cpu.push(threadCpu(host.pid));
    return { value, stallMs: worst, slow, cpu };
  } finally {
    running = false;
    await probe;
  }
}

const TRACE = Boolean(process.env.BENCH_STALL_TRACE);

/** The host's threads' CPU time so far (user + system, ms) by thread name, at epoch ms `at`. */
interface CpuSample {
  at: number;
  byName: Map<string, number>;
}

function threadCpu(pid: number): CpuSample {
  const byName = new Map<string, number>();
  const at = Date.now();
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, "utf8");
        const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")).replace(/\d+$/, "#");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
        byName.set(name, (byName.get(name) ?? 0) + ms);
      } catch {
        // the thread ended
      }
    }
  } catch {
    // the host ended
  }
  return { at, byName };
}

/** CPU ms each thread (by name) spent between the samples nearest `from` and `to`. */
function cpuBetween(samples: CpuSample[], from: number, to: number): string {
  if (samples.length < 2) return "";
  const near = (t: number) => samples.reduce((best, s) => (Math.abs(s.at - t) < Math.abs(best.at - t) ? s : best));
  const a = near(from);
  const b = near(to);
  const out: string[] = [];
  for (const [name, ms] of b.byName) {
    const spent = ms - (a.byName.get(name) ?? 0);
    if (spent > 0) out.push(`${name} ${spent.toFixed(0)}`);
  }
  return `${b.at - a.at} ms: ${out.join(", ")}`;
}

/**
 * BENCH_STALL_TRACE=1: the probe's slow answers of a call's turn, placed against the tool's own
 * run (the host's stamps): which of them fell while the tool ran, which before or after it.
 */
export function traceStalls(label: string, tool: { start: number; end: number }, slow: Array<{ at: number; ms: number }>, cpu: CpuSample[] = []): void {
  if (!TRACE) return;
  if (cpu.length > 1) {
    const first = cpu[0]!.at;
    const last = cpu[cpu.length - 1]!.at;
    console.log(
      `  host threads' CPU ms, ${label}: before the tool (${cpuBetween(cpu, first, tool.start)}); during (${cpuBetween(cpu, tool.start, tool.end)}); after (${cpuBetween(cpu, tool.end, last)})`,
    );
  }
  const where = (at: number, ms: number) => (at + ms < tool.start ? "before" : at > tool.end ? "after" : "during");
  const list = slow.map((s) => `${where(s.at, s.ms)} ${s.at - tool.start >= 0 ? "+" : ""}${s.at - tool.start}: ${s.ms.toFixed(0)}`).join(", ");
  console.log(`  stalls over ${SLOW_MS} ms, ${label} (tool ran ${tool.end - tool.start} ms; ms from its start: answer ms): ${list || "none"}`);
}

function toolTime(part: HostToolPart): number {
  const time = part.state.time as { start?: number; end?: number } | undefined;
  return time?.start !== undefined && time.end !== undefined ? time.end - time.start : NaN;
}

let callCount = 0;
/** The mock model calls `name(args)` in the driver session; the tool's time is the host's own stamp. */
export async function call(
  host: Host,
  driver: string,
  name: string,
  args: Record<string, unknown>,
): Promise<{ ms: number; output: string; start: number; end: number }> {
  const callId = `call_bench_${++callCount}`;
  host.mock.push({ toolCalls: [{ id: callId, name, args }] }, { text: "ok" });
  await host.prompt(driver, `call ${name}`);
  const part = findToolPart(await host.messages(driver), callId);
  if (!part) throw new Error(`no tool part for ${callId}`);
  if (part.state.status !== "completed") console.log(`  (${name} ended ${part.state.status}: ${String(part.state.error).slice(0, 200)})`);
  const time = part.state.time as { start?: number; end?: number } | undefined;
  return { ms: toolTime(part), output: String(part.state.output ?? ""), start: time?.start ?? NaN, end: time?.end ?? NaN };
}

export function rssMb(pid: number | undefined): { rss: number; peak: number } {
  if (pid === undefined || !existsSync(`/proc/${pid}/status`)) return { rss: NaN, peak: NaN };
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

/**
 * Copies a cached store into a host's data folder and moves the sessions `where` picks into the
 * host's project folder: session lists are per directory. Synchronous: the host starts right
 * after (startHost's prepare), and an update still running then met the host's own first writes
 * ("database is locked", the 10,000-session store's no-op host, 5 December).
 */
export function seedStore(
  open: (path: string) => SqliteDb,
  fromXdgData: string,
  dirs: { directory: string; xdgData: string },
  where: string,
  ...params: string[]
): void {
  const from = join(fromXdgData, "opencode");
  const to = join(dirs.xdgData, "opencode");
  mkdirSync(to, { recursive: true });
  for (const name of ["opencode.db", "opencode.db-wal", "opencode.db-shm"]) if (existsSync(join(from, name))) copyFileSync(join(from, name), join(to, name));
  pinProjectId(dirs.directory);
  const db = open(join(to, "opencode.db"));
  db.query(`UPDATE session SET directory = ? WHERE ${where}`).run(dirs.directory, ...params);
  db.close();
}

/** The `unsearched_sessions` count of a search answer (0 when complete). */
export const unsearchedOf = (output: string) => Number(/"unsearched_sessions":(\d+)/.exec(output)?.[1] ?? 0);

/**
 * A bench host running the plugin or the no-op, its data folder seeded from `fromXdgData` with the
 * sessions `where` picks in its project folder. Other projects' sessions are read as a user who
 * approved it would, or the plugin's ask-by-default would wait for an answer nobody gives.
 */
export async function startBenchHost(variant: Variant, noopPlugin: string, fromXdgData: string, where: string, ...params: string[]): Promise<Host> {
  const open = await sqliteOpener();
  const host = await startHost({
    plugin: variant === "plugin" ? undefined : noopPlugin,
    config: { permission: { "*": "allow", doom_loop: "allow", external_directory: "allow", engram_other_projects: "allow" } },
    // BENCH_ENGRAM_CONFIG: the plugin's own config for the run, e.g. '{"projection":{"enable":false}}'.
    ...(process.env.BENCH_ENGRAM_CONFIG ? { globalEngramConfig: process.env.BENCH_ENGRAM_CONFIG } : {}),
    prepare: (dirs) => seedStore(open, fromXdgData, dirs, where, ...params),
  });
  return host;
}
