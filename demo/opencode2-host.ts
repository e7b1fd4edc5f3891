// The demo's OpenCode 2 host: a real `opencode serve` 2.x with the plugin loaded from this checkout's
// folder (OpenCode 2 drops file paths), a scratch project and scratch XDG folders, wired to the
// scripted mock model. It offers the slice of the e2e harness's Host the demo drives, and hands
// OpenCode 2's messages back in the 1.x wire shape the demo reads (info + parts), so one flow runs
// on both generations. Facts it relies on, seen on the real 2.1.2 (shared fact sheet, first section):
// Basic auth (user `opencode`, OPENCODE_PASSWORD); POST /api/session {title, location}; POST
// …/prompt {text} then POST /api/experimental/session/:id/wait; GET …/message?order=&limit=&cursor=;
// POST …/compact {}; GET /api/plugin; providers.<id>.package "aisdk:@ai-sdk/openai-compatible".

import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { hostEnv, type Host } from "../e2e/harness/host.ts";
import { startMockLlm } from "../e2e/harness/mock-llm.ts";
import { repoRoot } from "../e2e/harness/paths.ts";
import { readToolPart } from "../e2e/harness/tool-call.ts";
import type { HostMessage, HostPart } from "../e2e/harness/types.ts";

/** What the demo drives; the 1.x harness's Host is one. */
export type DemoHost = Pick<
  Host,
  "url" | "directory" | "mock" | "logs" | "pluginLoadErrors" | "createSession" | "prompt" | "messages" | "summarize" | "callTool" | "stop"
>;

type Json = Record<string, any>;

const PASSWORD = "engram-demo";
const PAGE = 200;

/**
 * The OpenCode 2 binary: $OPENCODE2_BIN, else the platform package of `@opencode/cli` installed
 * beside this checkout; undefined when neither is there.
 */
export function opencode2Binary(): string | undefined {
  const fromEnv = process.env.OPENCODE2_BIN;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : undefined;
  const require = createRequire(join(repoRoot, "package.json"));
  const os = process.platform === "win32" ? "windows" : process.platform;
  for (const pkg of [`@opencode/cli-${os}-${process.arch}`, `@opencode/cli-${os}-${process.arch}-baseline`]) {
    try {
      const binary = join(dirname(require.resolve(`${pkg}/package.json`)), "bin", process.platform === "win32" ? "opencode.exe" : "opencode");
      if (existsSync(binary)) return binary;
    } catch {
      // not installed
    }
  }
  return undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

function text(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const pieces = content.filter((item: Json) => item?.type === "text").map((item: Json) => String(item.text ?? ""));
  return pieces.length > 0 ? pieces.join("\n") : undefined;
}

/** One OpenCode 2 message in the 1.x wire shape, or undefined for rows that carry no history (idle, switches). */
function asHostMessage(sessionID: string, message: Json): HostMessage | undefined {
  const base = { id: String(message.id), sessionID, time: { created: Number(message.time?.created ?? 0), completed: message.time?.completed } };
  const part = (index: number, fields: Json): HostPart => ({ id: `${message.id}_${index}`, sessionID, messageID: String(message.id), type: "text", ...fields });
  switch (message.type) {
    case "user":
      return { info: { ...base, role: "user" }, parts: [part(0, { type: "text", text: String(message.text ?? "") })] };
    case "assistant": {
      const parts = (message.content as Json[]).map((item, index) => {
        if (item.type !== "tool") return part(index, { type: item.type, text: item.text });
        const state = item.state ?? {};
        const status = state.status === "streaming" ? "pending" : state.status;
        const error = state.error === undefined ? undefined : typeof state.error === "string" ? state.error : String(state.error.message ?? state.error.type);
        return part(index, { type: "tool", callID: item.id, tool: item.name, state: { status, input: state.input, output: text(state.content), error } });
      });
      return { info: { ...base, role: "assistant", agent: message.agent }, parts };
    }
    case "compaction":
      if (message.status !== "completed") return undefined;
      return {
        info: { ...base, role: "assistant", agent: "compaction", summary: true },
        parts: [part(0, { type: "text", text: String(message.summary ?? "") })],
      };
    default:
      return undefined;
  }
}

/** Starts the host; the caller stops it. `projectFiles` are committed in the project's first commit. */
export async function startOpencode2Host(binary: string, projectFiles: Record<string, string>): Promise<DemoHost> {
  // The checkout's server.js loads dist/: build it so the host runs this source, not an old build.
  execFileSync(process.execPath, [join(repoRoot, "node_modules", "typescript", "bin", "tsc"), "-p", join(repoRoot, "tsconfig.build.json")], {
    stdio: "inherit",
  });
  const root = mkdtempSync(join(tmpdir(), "engram-demo2-"));
  const directory = join(root, "project");
  for (const folder of ["home", "config", "data", "cache", "state", "project"]) mkdirSync(join(root, folder), { recursive: true });
  const mock = await startMockLlm();
  const config = {
    providers: {
      mock: {
        name: "Mock",
        package: "aisdk:@ai-sdk/openai-compatible",
        settings: { baseURL: mock.baseURL, apiKey: "x" },
        models: { "mock-model": { name: "Mock", limit: { context: 100000, output: 4096 } } },
      },
    },
    model: "mock/mock-model",
    plugins: [repoRoot],
  };
  for (const [path, contents] of Object.entries({ "README.md": "# demo project\n", ...projectFiles, "opencode.json": JSON.stringify(config, null, 2) })) {
    mkdirSync(dirname(join(directory, path)), { recursive: true });
    writeFileSync(join(directory, path), contents);
  }
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.email=demo@example.invalid", "-c", "user.name=demo", ...args], { cwd: directory, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "initial");

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(binary, ["serve", "--hostname", "127.0.0.1", "--port", String(port)], {
    cwd: directory,
    env: hostEnv(root, { OPENCODE_PASSWORD: PASSWORD }),
    detached: true, // its own process group: stop() ends it and everything it started
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
  child.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      process.kill(-child.pid, "SIGTERM");
      const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, "SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    }
    await mock.close();
    rmSync(root, { recursive: true, force: true });
  };

  const authorization = `Basic ${Buffer.from(`opencode:${PASSWORD}`).toString("base64")}`;
  const request = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(new URL(path, url), {
      method,
      headers: { authorization, "content-type": "application/json", "x-opencode-directory": directory },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status}: ${answer.slice(0, 2000)}\n--- host log tail ---\n${log.slice(-3000)}`);
    return (answer ? JSON.parse(answer) : undefined) as T;
  };

  const messages = async (sessionId: string): Promise<HostMessage[]> => {
    const rows: Json[] = [];
    let page = await request<Json>("GET", `/api/session/${sessionId}/message?order=asc&limit=${PAGE}`);
    for (;;) {
      rows.push(...(page.data as Json[]));
      const next = page.cursor?.next;
      if ((page.data as Json[]).length < PAGE || typeof next !== "string") break;
      page = await request<Json>("GET", `/api/session/${sessionId}/message?limit=${PAGE}&cursor=${encodeURIComponent(next)}`);
    }
    return rows.map((row) => asHostMessage(sessionId, row)).filter((message) => message !== undefined);
  };
  const wait = (sessionId: string) => request("POST", `/api/experimental/session/${sessionId}/wait`);
  const prompt = async (sessionId: string, userText: string) => {
    await request("POST", `/api/session/${sessionId}/prompt`, { text: userText });
    await wait(sessionId);
    const last = (await messages(sessionId)).filter((message) => message.info.role === "assistant").at(-1);
    if (!last) throw new Error(`no assistant message after "${userText}"\n--- host log tail ---\n${log.slice(-3000)}`);
    return last;
  };

  let plugin: Json | undefined;
  const host: DemoHost = {
    url,
    directory,
    mock,
    logs: () => log,
    pluginLoadErrors: () => {
      const status = plugin?.state?.status;
      return status === "active" ? [] : [`opencode-engram is ${plugin ? `in state ${JSON.stringify(plugin.state)}` : "not in GET /api/plugin"}`];
    },
    createSession: async () => {
      const created = await request<Json>("POST", "/api/session", { title: "demo", location: { directory } });
      const info = (created.data ?? created) as Json;
      return { id: String(info.id), title: String(info.title ?? ""), directory };
    },
    prompt: (sessionId, userText) => prompt(sessionId, userText),
    messages,
    summarize: async (sessionId) => {
      await request("POST", `/api/session/${sessionId}/compact`, {});
      await wait(sessionId);
      return (await messages(sessionId)).some((message) => message.info.summary === true);
    },
    callTool: async (sessionId, name, args, options = {}) => {
      const callId = `call_demo_${Math.random().toString(36).slice(2, 10)}`;
      mock.push({ toolCalls: [{ id: callId, name, args }] }, { text: options.reply ?? `Called ${name}.` });
      await prompt(sessionId, options.prompt ?? `Please call ${name}.`);
      return readToolPart(await messages(sessionId), callId);
    },
    stop,
  };

  try {
    // Plugins load on a location's first request, and the list shows ours once it has: ask until it does.
    for (let attempt = 0; plugin?.state?.status !== "active"; attempt++) {
      try {
        const listed = await request<Json>("GET", "/api/plugin");
        plugin = (listed.data as Json[]).find((entry) => entry.id === "opencode-engram");
      } catch (error) {
        if (attempt >= 600 || child.exitCode !== null) throw error;
      }
      if (attempt >= 600 || child.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    await stop();
    throw new Error(`the OpenCode 2 host did not come up: ${String(error)}\n--- host log tail ---\n${log.slice(-3000)}`);
  }
  return host;
}
