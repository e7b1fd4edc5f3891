// One `opencode serve` process: spawned in its own process group, its output captured, stopped
// with everything it spawned. A last-resort hook kills hosts a test worker leaves behind.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

const MAX_LOG_CHARS = 400_000;
const live = new Set<{ child: ChildProcess; root: string }>();

function killAllSync(): void {
  for (const h of live) {
    killGroup(h.child, "SIGKILL");
    if (!process.env.ENGRAM_E2E_KEEP) rmSync(h.root, { recursive: true, force: true });
  }
  live.clear();
}
process.once("exit", killAllSync);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.once(signal, () => {
    killAllSync();
    process.exit(128 + (signal === "SIGINT" ? 2 : signal === "SIGTERM" ? 15 : 1));
  });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

export interface HostProcess {
  pid: number | undefined;
  /** Captured stdout/stderr, most recent last. */
  log(): string;
  /** Resolves with the URL once the host prints that it listens. */
  listening(timeoutMs: number): Promise<string>;
  /** Kills the host's process group, then runs `cleanup`, saves the log, removes the root. */
  stop(cleanup: () => Promise<void>): Promise<void>;
}

export function launchHost(binary: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; root: string }): HostProcess {
  const child = spawn(binary, args, {
    cwd: opts.cwd,
    env: opts.env,
    detached: true, // own process group, so stop() can kill the host and everything it spawned
    stdio: ["ignore", "pipe", "pipe"],
  });
  const handle = { child, root: opts.root };
  live.add(handle);
  let log = "";
  const append = (chunk: Buffer) => {
    log += chunk.toString("utf8");
    if (log.length > MAX_LOG_CHARS) log = log.slice(-MAX_LOG_CHARS / 2);
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);

  return {
    pid: child.pid,
    log: () => log,
    listening: (timeoutMs) => waitForListening(child, () => log, timeoutMs),
    stop: async (cleanup) => {
      if (!live.has(handle)) return;
      live.delete(handle);
      const exited = new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) resolve();
        else child.once("exit", () => resolve());
      });
      killGroup(child, "SIGTERM");
      const timer = setTimeout(() => killGroup(child, "SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
      killGroup(child, "SIGKILL"); // stragglers left in the group
      await cleanup();
      const logDir = process.env.ENGRAM_E2E_LOG_DIR;
      if (logDir) {
        mkdirSync(logDir, { recursive: true });
        writeFileSync(join(logDir, `${basename(opts.root)}.log`), log);
      }
      if (!process.env.ENGRAM_E2E_KEEP) rmSync(opts.root, { recursive: true, force: true });
    },
  };
}

const READY = /listening on (https?:\/\/[^\s]+)/;

function waitForListening(child: ChildProcess, log: () => string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const m = READY.exec(log());
      if (m?.[1]) {
        cleanup();
        resolve(m[1].replace(/\/$/, ""));
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`opencode exited (${code}) before listening:\n${log().slice(-4000)}`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`opencode did not start listening in ${timeoutMs} ms:\n${log().slice(-4000)}`));
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout?.off("data", check);
      child.stderr?.off("data", check);
      child.off("exit", onExit);
    };
    child.stdout?.on("data", check);
    child.stderr?.on("data", check);
    child.on("exit", onExit);
    check();
  });
}
