// Starts a real `opencode serve` with the plugin, a scratch project and scratch XDG dirs,
// wired to the scripted mock LLM. Tests drive it over HTTP exactly as a client would.
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { startMockLlm, type MockLlm } from "./mock-llm.ts";
import { pluginFileUrl, resolveOpencodeBinary } from "./paths.ts";
import type { HostMessage, HostPart, HostSession, HostToolPart } from "./types.ts";
import { readToolPart, type ToolCallResult } from "./tool-call.ts";

export const MODEL = { providerID: "mock", modelID: "mock-model" } as const;

export interface StartHostOptions {
  /** Plugin entries; defaults to the working tree's `src/index.ts` as a file:// URL. `[]` loads none. */
  plugin?: string | string[];
  /** Merged over the generated opencode.json (top-level keys replace, `provider` entries merge). */
  config?: Record<string, unknown>;
  /** Extra files for the project, relative paths → contents. Committed in the initial commit. */
  projectFiles?: Record<string, string>;
  /** Contents of `<project>/opencode-engram.jsonc` (the project layer of the plugin's config). */
  engramConfig?: string;
  /** Contents of `$XDG_CONFIG_HOME/opencode/opencode-engram.jsonc` (the global layer). */
  globalEngramConfig?: string;
  /** Extra environment for the host process. */
  env?: Record<string, string>;
  /** Host log level printed to the captured output (default INFO). */
  logLevel?: "DEBUG" | "INFO" | "WARN" | "ERROR";
  /** Runs after the project and scratch dirs exist, before the host starts (e.g. to seed its data dir). */
  prepare?(dirs: { root: string; directory: string; xdgData: string }): void;
}

export interface PromptOptions {
  /** Extra parts sent after the text part (e.g. a `file` part). */
  parts?: Record<string, unknown>[];
  agent?: string;
  system?: string;
  tools?: Record<string, boolean>;
  timeoutMs?: number;
}

export interface Host {
  url: string;
  /** The host process id (e.g. to read its memory). */
  pid: number | undefined;
  /** The scratch project directory (a git repo with one commit). */
  directory: string;
  /** Root of every temp dir of this host (project, HOME, XDG dirs). */
  root: string;
  dataDir: string;
  mock: MockLlm;
  /** Captured stdout/stderr of the host, most recent last. */
  logs(): string;
  /** Host log lines about plugins that failed to load (the host otherwise carries on silently). */
  pluginLoadErrors(): string[];
  request<T = unknown>(method: string, path: string, body?: unknown, timeoutMs?: number): Promise<T>;
  createSession(body?: Record<string, unknown>): Promise<HostSession>;
  /** Sends a user message and waits until the whole turn finishes; returns the last assistant message. */
  prompt(sessionId: string, text: string, opts?: PromptOptions): Promise<HostMessage>;
  messages(sessionId: string): Promise<HostMessage[]>;
  /** Writes a file relative to the project directory (e.g. to change opencode-engram.jsonc mid-test). */
  writeFile(relativePath: string, contents: string): void;
  /** Aborts the running turn of a session. */
  abort(sessionId: string): Promise<boolean>;
  session(sessionId: string): Promise<HostSession>;
  children(sessionId: string): Promise<HostSession[]>;
  sessions(): Promise<HostSession[]>;
  /** Manual compaction; resolves once the summary is written. */
  summarize(sessionId: string): Promise<boolean>;
  /** Makes the mock model call `name(args)`, then reply with text; returns the stored tool part. */
  callTool(sessionId: string, name: string, args: unknown, opts?: { prompt?: string; reply?: string }): Promise<ToolCallResult>;
  stop(): Promise<void>;
}

const READY = /listening on (https?:\/\/[^\s]+)/;
const MAX_LOG_CHARS = 400_000;
const live = new Set<{ child: ChildProcess; root: string }>();

// Last-resort cleanup if a test worker exits without calling stop(). The host runs detached
// (its own process group), so it would otherwise outlive an interrupted test run.
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

function writeFiles(base: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = join(base, rel);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

function buildConfig(mock: MockLlm, opts: StartHostOptions): Record<string, unknown> {
  const plugin = opts.plugin === undefined ? [pluginFileUrl()] : ([] as string[]).concat(opts.plugin);
  const provider = {
    mock: {
      npm: "@ai-sdk/openai-compatible",
      name: "Mock",
      options: { baseURL: mock.baseURL, apiKey: "x" },
      models: { "mock-model": { name: "Mock", limit: { context: 100000, output: 4096 }, tool_call: true } },
    },
  };
  const base: Record<string, unknown> = {
    $schema: "https://opencode.ai/config.json",
    model: "mock/mock-model",
    small_model: "mock/mock-model",
    provider,
    plugin,
    // Nothing may block on an approval prompt; doom_loop would stop repeated identical tool calls.
    permission: { "*": "allow", doom_loop: "allow", external_directory: "allow" },
    autoupdate: false,
    share: "disabled",
  };
  const extra = opts.config ?? {};
  const merged = { ...base, ...extra };
  if (extra.provider && typeof extra.provider === "object") merged.provider = { ...provider, ...extra.provider };
  return merged;
}

/** The environment of a host process whose HOME and XDG folders live under `root`. */
export function hostEnv(root: string, extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // Drop the caller's opencode settings (tests may themselves run inside opencode).
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("OPENCODE")) env[k] = v;
  return {
    ...env,
    HOME: join(root, "home"),
    XDG_CONFIG_HOME: join(root, "config"),
    XDG_DATA_HOME: join(root, "data"),
    XDG_CACHE_HOME: join(root, "cache"),
    XDG_STATE_HOME: join(root, "state"),
    // npm's cache lives under HOME; keep one across runs so the host's plugin installs are fast.
    npm_config_cache: join(tmpdir(), "opencode-engram-e2e-npm-cache"),
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_CLAUDE_CODE: "1",
    OPENCODE_DISABLE_EXTERNAL_SKILLS: "1",
    OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
    ...extra,
  };
}

function initProject(dir: string, files: Record<string, string>): void {
  writeFiles(dir, files);
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.email=e2e@example.invalid", "-c", "user.name=e2e", ...args], {
      cwd: dir,
      stdio: "ignore",
    });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "initial");
}

export async function startHost(opts: StartHostOptions = {}): Promise<Host> {
  const root = mkdtempSync(join(tmpdir(), "engram-e2e-"));
  const directory = join(root, "project");
  for (const d of ["home", "config", "data", "cache", "state", "project"]) mkdirSync(join(root, d), { recursive: true });
  const mock = await startMockLlm();
  const files: Record<string, string> = {
    "README.md": "# e2e project\n",
    ...opts.projectFiles,
    "opencode.json": JSON.stringify(buildConfig(mock, opts), null, 2),
  };
  if (opts.engramConfig !== undefined) files["opencode-engram.jsonc"] = opts.engramConfig;
  initProject(directory, files);
  if (opts.globalEngramConfig !== undefined) {
    writeFiles(join(root, "config", "opencode"), { "opencode-engram.jsonc": opts.globalEngramConfig });
  }
  opts.prepare?.({ root, directory, xdgData: join(root, "data") });

  const args = ["serve", "--port", "0", "--hostname", "127.0.0.1", "--print-logs", "--log-level", opts.logLevel ?? "INFO"];
  const child = spawn(resolveOpencodeBinary(), args, {
    cwd: directory,
    env: hostEnv(root, opts.env),
    detached: true, // own process group, so stop() can kill the host and everything it spawned
    stdio: ["ignore", "pipe", "pipe"],
  });
  const handle = { child, root };
  live.add(handle);

  let log = "";
  const append = (chunk: Buffer) => {
    log += chunk.toString("utf8");
    if (log.length > MAX_LOG_CHARS) log = log.slice(-MAX_LOG_CHARS / 2);
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);

  const stop = async () => {
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
    await mock.close();
    const logDir = process.env.ENGRAM_E2E_LOG_DIR;
    if (logDir) {
      mkdirSync(logDir, { recursive: true });
      writeFileSync(join(logDir, `${basename(root)}.log`), log);
    }
    if (!process.env.ENGRAM_E2E_KEEP) rmSync(root, { recursive: true, force: true });
  };

  let url: string;
  try {
    url = await waitForListening(child, () => log, 120_000);
  } catch (err) {
    await stop();
    throw err;
  }

  const request = async <T>(method: string, path: string, body?: unknown, timeoutMs = 240_000): Promise<T> => {
    const target = new URL(path, url);
    if (!target.searchParams.has("directory")) target.searchParams.set("directory", directory);
    let res: Response;
    try {
      res = await fetch(target, {
        method,
        headers: { "content-type": "application/json", "x-opencode-directory": directory },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new Error(`${method} ${path} failed: ${String(err)}\n--- host log tail ---\n${log.slice(-3000)}`);
    }
    const text = await res.text();
    if (!res.ok) {
      throw new Error(`${method} ${path} → ${res.status}: ${text.slice(0, 2000)}\n--- host log tail ---\n${log.slice(-3000)}`);
    }
    return (text ? JSON.parse(text) : undefined) as T;
  };

  const messages = (id: string) => request<HostMessage[]>("GET", `/session/${id}/message`);
  const prompt = (id: string, text: string, o: PromptOptions = {}) =>
    request<HostMessage>(
      "POST",
      `/session/${id}/message`,
      {
        parts: [{ type: "text", text }, ...(o.parts ?? [])],
        model: MODEL,
        ...(o.agent ? { agent: o.agent } : {}),
        ...(o.system ? { system: o.system } : {}),
        ...(o.tools ? { tools: o.tools } : {}),
      },
      o.timeoutMs,
    );

  const host: Host = {
    url,
    pid: child.pid,
    directory,
    root,
    dataDir: join(root, "data", "opencode"),
    mock,
    logs: () => log,
    pluginLoadErrors: () => log.split("\n").filter((l) => /level=(ERROR|WARN)/.test(l) && /plugin/i.test(l)),
    request,
    createSession: (body = {}) => request<HostSession>("POST", "/session", body),
    prompt,
    messages,
    writeFile: (rel, contents) => writeFiles(directory, { [rel]: contents }),
    abort: (id) => request<boolean>("POST", `/session/${id}/abort`),
    session: (id) => request<HostSession>("GET", `/session/${id}`),
    children: (id) => request<HostSession[]>("GET", `/session/${id}/children`),
    sessions: () => request<HostSession[]>("GET", "/session"),
    summarize: (id) => request<boolean>("POST", `/session/${id}/summarize`, MODEL),
    callTool: async (id, name, args, o = {}) => {
      const callId = `call_e2e_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
      mock.push({ toolCalls: [{ id: callId, name, args }] }, { text: o.reply ?? `Called ${name}.` });
      await prompt(id, o.prompt ?? `Please call ${name}.`);
      const result = readToolPart(await messages(id), callId);
      // ENGRAM_CAPTURE_DOCS=<file> records every call and answer: the samples in docs/tools.md.
      const capture = process.env.ENGRAM_CAPTURE_DOCS;
      if (capture) appendFileSync(capture, `${JSON.stringify({ name, args, output: result.raw, error: result.error })}\n`);
      return result;
    },
    stop,
  };

  try {
    // The first instance request bootstraps the project (npm installs, DB migration): give it time.
    await request("GET", "/session", undefined, 300_000);
  } catch (err) {
    const tail = log.slice(-4000);
    await stop();
    throw new Error(`host warm-up failed: ${String(err)}\n--- host log tail ---\n${tail}`);
  }
  return host;
}

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

export type { HostMessage, HostPart, HostSession, HostToolPart, ToolCallResult };
