// Starts a real `opencode serve` with the plugin, a scratch project and scratch XDG dirs, wired to
// the scripted mock LLM; tests drive it over HTTP exactly as a client would. The host is the one
// ENGRAM_E2E_HOST picks (hosts.ts); an OpenCode 2 host (host-v2.ts) answers through the same
// interface, its messages mapped to the 1.x wire shape the tests read.
import { appendFileSync, mkdirSync, mkdtempSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startHostV2 } from "./host-v2.ts";
import { selectedHost, type SelectedHost } from "./hosts.ts";
import { startMockLlm, type MockLlm } from "./mock-llm.ts";
import { pluginFileUrl } from "./paths.ts";
import { launchHost, type HostProcess } from "./process.ts";
import { hostEnv, initProject, writeFiles } from "./scratch.ts";
import { readToolPart, type ToolCallResult } from "./tool-call.ts";
import type { HostMessage, HostPart, HostSession, HostToolPart } from "./types.ts";

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
  /** The OpenCode generation (1: `plugin` functions, 2: `plugins` with `{id, setup}`). */
  generation: 1 | 2;
  /** The pinned version running (e2e/hosts.json). */
  version: string;
  /** The host's binary (also the Bun the CLI tests run under). */
  binary: string;
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
  /** Disposes the project's instance (its plugins' dispose runs; the next request loads them afresh). */
  disposeInstance(): Promise<void>;
  /** Deletes a session through the host. */
  deleteSession(sessionId: string): Promise<void>;
  /** Manual compaction; resolves once the summary is written. */
  summarize(sessionId: string): Promise<boolean>;
  /** Makes the mock model call `name(args)`, then reply with text; returns the stored tool part. */
  callTool(sessionId: string, name: string, args: unknown, opts?: { prompt?: string; reply?: string }): Promise<ToolCallResult>;
  stop(): Promise<void>;
}

/** What every host shares: the scratch dirs, the mock model, the running process. */
export interface Launched {
  root: string;
  directory: string;
  mock: MockLlm;
  host: SelectedHost;
  process: HostProcess;
  url: string;
  stop(): Promise<void>;
}

/** Makes the scratch world, writes the project (with `configFile`'s contents) and starts `serve`. */
export async function launch(
  opts: StartHostOptions,
  host: SelectedHost,
  configFor: (mock: MockLlm) => Record<string, unknown>,
  serveArgs: (port: number) => string[],
  env: Record<string, string> = {},
): Promise<Launched> {
  const root = mkdtempSync(join(tmpdir(), "engram-e2e-"));
  const directory = join(root, "project");
  for (const d of ["home", "config", "data", "cache", "state", "project"]) mkdirSync(join(root, d), { recursive: true });
  const mock = await startMockLlm();
  const files: Record<string, string> = {
    "README.md": "# e2e project\n",
    ...opts.projectFiles,
    "opencode.json": JSON.stringify(configFor(mock), null, 2),
  };
  if (opts.engramConfig !== undefined) files["opencode-engram.jsonc"] = opts.engramConfig;
  initProject(directory, files);
  if (opts.globalEngramConfig !== undefined) {
    writeFiles(join(root, "config", "opencode"), { "opencode-engram.jsonc": opts.globalEngramConfig });
  }
  opts.prepare?.({ root, directory, xdgData: join(root, "data") });
  const child = launchHost(host.binary, serveArgs(await freePort()), { cwd: directory, env: hostEnv(root, { ...env, ...opts.env }), root });
  const stop = () => child.stop(() => mock.close());
  try {
    const url = await child.listening(120_000);
    return { root, directory, mock, host, process: child, url, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The tool-call helper both generations share: script the call, prompt, read the stored part back. */
export async function scriptedToolCall(
  host: Pick<Host, "generation" | "mock" | "prompt" | "messages">,
  id: string,
  name: string,
  args: unknown,
  o: { prompt?: string; reply?: string },
): Promise<ToolCallResult> {
  const callId = `call_e2e_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  host.mock.push({ toolCalls: [{ id: callId, name, args }] }, { text: o.reply ?? `Called ${name}.` });
  await host.prompt(id, o.prompt ?? `Please call ${name}.`);
  const result = readToolPart(await host.messages(id), callId, host.generation);
  // ENGRAM_CAPTURE_DOCS=<file> records every call and answer: the samples in docs/tools.md.
  const capture = process.env.ENGRAM_CAPTURE_DOCS;
  if (capture) appendFileSync(capture, `${JSON.stringify({ name, args, output: result.raw, error: result.error })}\n`);
  return result;
}

/** Reads an HTTP answer, failing with the host's log tail. */
export async function answer<T>(res: Response, what: string, log: () => string): Promise<T> {
  const text = await res.text();
  if (!res.ok) throw new Error(`${what} → ${res.status}: ${text.slice(0, 2000)}\n--- host log tail ---\n${log().slice(-3000)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

function buildConfigV1(mock: MockLlm, opts: StartHostOptions): Record<string, unknown> {
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

export async function startHost(opts: StartHostOptions = {}): Promise<Host> {
  const selected = selectedHost();
  if (selected.generation === 2) return startHostV2(opts, selected);
  const args = (port: number) => ["serve", "--port", String(port), "--hostname", "127.0.0.1", "--print-logs", "--log-level", opts.logLevel ?? "INFO"];
  const { root, directory, mock, process: child, url, stop } = await launch(opts, selected, (m) => buildConfigV1(m, opts), args);
  const log = child.log;

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
      throw new Error(`${method} ${path} failed: ${String(err)}\n--- host log tail ---\n${log().slice(-3000)}`);
    }
    return answer<T>(res, `${method} ${path}`, log);
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
    generation: 1,
    version: selected.version,
    binary: selected.binary,
    url,
    pid: child.pid,
    directory,
    root,
    dataDir: join(root, "data", "opencode"),
    mock,
    logs: log,
    // 1.19.5 installs `@opencode-ai/plugin@<its version>` into the config folder, which npm does not
    // have past 1.18.33: a note about the host's own SDK, not about loading a plugin.
    pluginLoadErrors: () =>
      log()
        .split("\n")
        .filter((l) => /level=(ERROR|WARN)/.test(l) && /plugin/i.test(l))
        .filter((l) => !l.includes(`No matching version found for @opencode-ai/plugin@${selected.version}`)),
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
    disposeInstance: async () => {
      if ((await request("POST", "/instance/dispose")) !== true) throw new Error("POST /instance/dispose did not answer true");
    },
    deleteSession: async (id) => {
      if ((await request("DELETE", `/session/${id}`)) !== true) throw new Error(`DELETE /session/${id} did not answer true`);
    },
    callTool: (id, name, args, o = {}) => scriptedToolCall(host, id, name, args, o),
    stop,
  };

  try {
    // The first instance request bootstraps the project (npm installs, DB migration): give it time.
    await request("GET", "/session", undefined, 300_000);
  } catch (err) {
    const tail = log().slice(-4000);
    await stop();
    throw new Error(`host warm-up failed: ${String(err)}\n--- host log tail ---\n${tail}`);
  }
  return host;
}

export { hostEnv };
export type { HostMessage, HostPart, HostSession, HostToolPart, ToolCallResult };
