// What the hosts of both generations share: the scratch world and the running `serve` (launch),
// reading an HTTP answer, and a scripted tool call read back from the stored messages.
import { appendFileSync, mkdirSync, mkdtempSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Host, StartHostOptions } from "./host-api.ts";
import type { SelectedHost } from "./hosts.ts";
import { startMockLlm, type MockLlm } from "./mock-llm.ts";
import { launchHost, type HostProcess } from "./process.ts";
import { hostEnv, initProject, writeFiles } from "./scratch.ts";
import { readToolPart, type ToolCallResult } from "./tool-call.ts";

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

/** The part of a Host every generation fills alike; `harmless` marks host warnings that name no plugin failure. */
export function commonHost(
  launched: Launched,
  harmless: (line: string) => boolean,
): Pick<Host, "version" | "binary" | "url" | "pid" | "directory" | "root" | "dataDir" | "mock" | "logs" | "pluginLoadErrors" | "writeFile" | "stop"> {
  const { host, url, directory, root, mock, stop } = launched;
  const log = launched.process.log;
  return {
    version: host.version,
    binary: host.binary,
    url,
    pid: launched.process.pid,
    directory,
    root,
    dataDir: join(root, "data", "opencode"),
    mock,
    logs: log,
    pluginLoadErrors: () =>
      log()
        .split("\n")
        .filter((l) => /level=(ERROR|WARN)/.test(l) && /plugin/i.test(l) && !harmless(l)),
    writeFile: (rel, contents) => writeFiles(directory, { [rel]: contents }),
    stop,
  };
}
