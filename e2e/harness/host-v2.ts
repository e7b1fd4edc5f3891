// The Host interface over a real OpenCode 2 `serve` (2.1.2's API: Basic auth as user `opencode`,
// `/api/session…`, prompts that return at once and a `wait` that returns when the session idles).
// The plugin is the checkout directory (2.1.2 loads `<dir>/server`, i.e. the built dist/), the
// config is v2's (`providers`, `plugins`). Always `--hostname/--port`: no `serve --service` daemon.
import type { Host, PromptOptions, StartHostOptions } from "./host-api.ts";
import { answer, commonHost, launch, scriptedToolCall } from "./launch.ts";
import type { SelectedHost } from "./hosts.ts";
import { mapV2Message, mapV2Session } from "./messages-v2.ts";
import type { MockLlm } from "./mock-llm.ts";
import { repoRoot } from "./paths.ts";
import type { HostMessage } from "./types.ts";

const PASSWORD = "engram-e2e";
const PAGE = 200;

function buildConfigV2(mock: MockLlm, opts: StartHostOptions): Record<string, unknown> {
  const plugins = opts.plugin === undefined ? [repoRoot] : ([] as string[]).concat(opts.plugin);
  const providers = {
    mock: {
      name: "Mock",
      package: "aisdk:@ai-sdk/openai-compatible",
      settings: { baseURL: mock.baseURL, apiKey: "x" },
      models: { "mock-model": { name: "Mock", limit: { context: 100000, output: 4096 } } },
    },
  };
  const extra = opts.config ?? {};
  const merged: Record<string, unknown> = { model: "mock/mock-model", providers, plugins, ...extra };
  if (extra.providers && typeof extra.providers === "object") merged.providers = { ...providers, ...extra.providers };
  return merged;
}

export async function startHostV2(opts: StartHostOptions, selected: SelectedHost): Promise<Host> {
  const args = (port: number) => [
    "serve",
    "--hostname",
    "127.0.0.1",
    "--port",
    String(port),
    "--print-logs",
    "--log-level",
    (opts.logLevel ?? "INFO").toLowerCase(),
  ];
  const launched = await launch(opts, selected, (m) => buildConfigV2(m, opts), args, { OPENCODE_PASSWORD: PASSWORD });
  const { directory, url, stop } = launched;
  const log = launched.process.log;
  const auth = `Basic ${Buffer.from(`opencode:${PASSWORD}`).toString("base64")}`;

  const request = async <T>(method: string, path: string, body?: unknown, timeoutMs = 240_000): Promise<T> => {
    let res: Response;
    try {
      res = await fetch(new URL(path, url), {
        method,
        headers: { "content-type": "application/json", authorization: auth },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new Error(`${method} ${path} failed: ${String(err)}\n--- host log tail ---\n${log().slice(-3000)}`);
    }
    return answer<T>(res, `${method} ${path}`, log);
  };
  const data = async <T>(method: string, path: string, body?: unknown, timeoutMs?: number) => (await request<{ data: T }>(method, path, body, timeoutMs)).data;

  const messages = async (id: string): Promise<HostMessage[]> => {
    const rows: unknown[] = [];
    let cursor: string | undefined;
    for (;;) {
      const query = new URLSearchParams({ limit: String(PAGE), order: "asc", ...(cursor ? { cursor } : {}) });
      const page = await request<{ data: unknown[]; cursor?: { next?: string } }>("GET", `/api/session/${id}/message?${query}`);
      rows.push(...page.data);
      cursor = page.cursor?.next;
      if (page.data.length < PAGE || !cursor) break;
    }
    return rows.map((row) => mapV2Message(row, id)).filter((m): m is HostMessage => m !== undefined);
  };
  const wait = (id: string, timeoutMs?: number) => request("POST", `/api/experimental/session/${id}/wait`, undefined, timeoutMs);
  /**
   * Waits until the turn after message `after` is over: `wait` alone may answer before it starts. A
   * turn ends with an `idle` row, or, when the user declines a tool call, with the assistant
   * message's error and no idle row.
   */
  const settle = async (id: string, after: string, timeoutMs?: number) => {
    for (;;) {
      await wait(id, timeoutMs);
      const { data: newest } = await request<{ data: { id: string; type: string; error?: unknown }[] }>("GET", `/api/session/${id}/message?limit=5&order=desc`);
      const last = newest[0];
      if (newest.some((m) => m.type === "idle" && m.id > after)) return;
      if (last && last.id > after && last.type === "assistant" && last.error !== undefined) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  const prompt = async (id: string, text: string, o: PromptOptions = {}): Promise<HostMessage> => {
    if (o.system !== undefined || o.tools !== undefined) throw new Error("OpenCode 2's prompt takes no `system` or `tools`");
    if (o.agent) await request("POST", `/api/session/${id}/agent`, { agent: o.agent });
    const files = (o.parts ?? []).map((part) => ({ uri: String(part.url), ...(part.filename ? { name: String(part.filename) } : {}) }));
    const sent = await data<{ id: string }>("POST", `/api/session/${id}/prompt`, { text, ...(files.length > 0 ? { files } : {}) }, o.timeoutMs);
    await settle(id, sent.id, o.timeoutMs);
    const last = (await messages(id)).filter((m) => m.info.role === "assistant").at(-1);
    if (!last) throw new Error(`session ${id}: no assistant message after the prompt\n--- host log tail ---\n${log().slice(-3000)}`);
    return last;
  };

  const sessionList = async (query: Record<string, string>) =>
    (await data<unknown[]>("GET", `/api/session?${new URLSearchParams({ limit: "1000", ...query })}`)).map(mapV2Session);

  const host: Host = {
    generation: 2,
    // The update check of a `file:` package spec always fails ("only … registry and Git package
    // specs"): a note about updates, not about loading.
    ...commonHost(launched, (line) => /failed to check plugin update/.test(line)),
    request,
    createSession: async (body = {}) => mapV2Session(await data("POST", "/api/session", { location: { directory }, ...body })),
    prompt,
    messages,
    abort: async (id) => {
      await request("POST", `/api/session/${id}/interrupt`);
      return true;
    },
    session: async (id) => mapV2Session(await data("GET", `/api/session/${id}`)),
    children: (id) => sessionList({ parentID: id }),
    sessions: () => sessionList({ directory }),
    summarize: async (id) => {
      const sent = await data<{ id: string }>("POST", `/api/session/${id}/compact`, {});
      await settle(id, sent.id);
      return (await messages(id)).some((m) => m.parts.some((p) => p.type === "compaction"));
    },
    // `debug.location.evict`: disposes the location's cached services, its plugins among them.
    disposeInstance: async () => {
      await request("DELETE", `/api/debug/location?${new URLSearchParams({ "location[directory]": directory })}`);
    },
    deleteSession: async (id) => {
      await request("DELETE", `/api/session/${id}`);
    },
    callTool: (id, name, args, o = {}) => scriptedToolCall(host, id, name, args, o),
  };

  try {
    // The first request of a location loads its plugins (lazily, on 2.1.2): give it time.
    await sessionList({ directory });
  } catch (err) {
    const tail = log().slice(-4000);
    await stop();
    throw new Error(`host warm-up failed: ${String(err)}\n--- host log tail ---\n${tail}`);
  }
  return host;
}
