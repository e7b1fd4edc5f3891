// Starts a real `opencode serve` with the plugin, a scratch project and scratch XDG dirs, wired to
// the scripted mock LLM; tests drive it over HTTP exactly as a client would. The host is the one
// ENGRAM_E2E_HOST picks (hosts.ts); an OpenCode 2 host (host-v2.ts) answers through the same
// interface, its messages mapped to the 1.x wire shape the tests read.
import type { Host, PromptOptions, StartHostOptions } from "./host-api.ts";
import { startHostV2 } from "./host-v2.ts";
import { selectedHost } from "./hosts.ts";
import { answer, commonHost, launch, scriptedToolCall } from "./launch.ts";
import type { MockLlm } from "./mock-llm.ts";
import { pluginFileUrl } from "./paths.ts";
import { hostEnv } from "./scratch.ts";
import type { ToolCallResult } from "./tool-call.ts";
import type { HostMessage, HostPart, HostSession, HostToolPart } from "./types.ts";

export const MODEL = { providerID: "mock", modelID: "mock-model" } as const;

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
  const launched = await launch(opts, selected, (m) => buildConfigV1(m, opts), args);
  const { directory, url, stop } = launched;
  const log = launched.process.log;

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
    // 1.19.5 installs `@opencode-ai/plugin@<its version>` into the config folder, which npm does not
    // have past 1.18.33: a note about the host's own SDK, not about loading a plugin.
    ...commonHost(launched, (line) => line.includes(`No matching version found for @opencode-ai/plugin@${selected.version}`)),
    request,
    createSession: (body = {}) => request<HostSession>("POST", "/session", body),
    prompt,
    messages,
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
export type { Host, HostMessage, HostPart, HostSession, HostToolPart, PromptOptions, StartHostOptions, ToolCallResult };
