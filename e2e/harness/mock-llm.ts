// A scripted OpenAI-compatible chat-completions server, so the real OpenCode host can run
// whole turns (tool calls, subagents, compaction) without any LLM or network.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface MockToolCall {
  name: string;
  args: unknown;
  /** Tool call id; generated when absent. Tests set it to find the resulting tool part. */
  id?: string;
}

export interface MockUsage {
  prompt_tokens: number;
  completion_tokens: number;
  reasoning_tokens?: number;
}

export interface MockResponse {
  text?: string;
  /** Streamed as `delta.reasoning_content`; the host stores it as a reasoning part. */
  reasoning?: string;
  toolCalls?: MockToolCall[];
  /** Answer with this HTTP error instead of a completion. */
  error?: { status: number; message: string };
  usage?: Partial<MockUsage>;
}

/** Why the host sent a request; internal ones never consume the test's queue. */
export type RequestKind = "chat" | "title" | "compaction" | "internal";

export interface RecordedRequest {
  kind: RequestKind;
  path: string;
  /** Size of the raw request body, e.g. to measure what compaction sends. */
  bytes: number;
  /** The parsed JSON body exactly as the host sent it. */
  body: ChatRequestBody;
  /** What the mock answered (filled in before the response is written). */
  response?: MockResponse;
}

export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
  [key: string]: unknown;
}

export interface ChatRequestBody {
  model?: string;
  messages: ChatMessage[];
  tools?: { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
  stream?: boolean;
  max_tokens?: number;
  max_completion_tokens?: number;
  [key: string]: unknown;
}

/** Return undefined to fall back to the queue (chat) or the canned answer (internal kinds). */
export type Responder = (request: RecordedRequest) => MockResponse | undefined;

export interface MockLlm {
  /** Base URL including `/v1`, for the provider's `options.baseURL`. */
  readonly baseURL: string;
  readonly requests: RecordedRequest[];
  /** Queue responses for the next `chat` requests, in order. */
  push(...responses: MockResponse[]): void;
  /** Responses still queued (a test can assert its script was fully consumed). */
  pending(): number;
  setResponder(responder: Responder | undefined): void;
  /** Clears the queue, the responder and the recorded requests. */
  reset(): void;
  chatRequests(): RecordedRequest[];
  requestsOf(kind: RequestKind): RecordedRequest[];
  close(): Promise<void>;
}

export const DEFAULT_TEXT = "Mock reply.";
export const CANNED_TITLE = "Mock session title";
export const CANNED_SUMMARY = "## Objective\n- Mock compaction summary.\n";

export function systemText(body: ChatRequestBody): string {
  return body.messages
    .filter((m) => m.role === "system")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
    .join("\n");
}

export function classify(body: ChatRequestBody): RequestKind {
  const system = systemText(body);
  if (system.includes("context summarization agent")) return "compaction";
  const hasTools = (body.tools?.length ?? 0) > 0;
  if (hasTools) return "chat";
  // The host's title generator is a tool-less call whose system prompt talks about titles.
  if (/title/i.test(system)) return "title";
  return "internal";
}

/** Text of the last user message, handy in responders. */
export function lastUserText(body: ChatRequestBody): string {
  for (let i = body.messages.length - 1; i >= 0; i--) {
    const m = body.messages[i];
    if (m?.role !== "user") continue;
    if (typeof m.content === "string") return m.content;
    if (Array.isArray(m.content)) {
      return m.content.map((c: unknown) => (c && typeof c === "object" && "text" in c ? String((c as { text: unknown }).text) : "")).join("");
    }
  }
  return "";
}

let callCounter = 0;

function normalise(response: MockResponse): Required<Pick<MockResponse, "toolCalls">> & MockResponse {
  const toolCalls = (response.toolCalls ?? []).map((c) => ({ ...c, id: c.id ?? `call_mock_${++callCounter}` }));
  return { ...response, toolCalls };
}

function usageJson(response: MockResponse) {
  const prompt = response.usage?.prompt_tokens ?? 10;
  const completion = response.usage?.completion_tokens ?? 5;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    completion_tokens_details: { reasoning_tokens: response.usage?.reasoning_tokens ?? 0 },
  };
}

function writeStream(res: ServerResponse, model: string, response: MockResponse): void {
  const id = `chatcmpl-mock-${++callCounter}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: object, finish: string | null, extra: object = {}) =>
    `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  res.write(chunk({ role: "assistant", content: "" }, null));
  if (response.reasoning) res.write(chunk({ reasoning_content: response.reasoning }, null));
  if (response.text) res.write(chunk({ content: response.text }, null));
  (response.toolCalls ?? []).forEach((call, index) => {
    const fn = { name: call.name, arguments: JSON.stringify(call.args ?? {}) };
    res.write(chunk({ tool_calls: [{ index, id: call.id, type: "function", function: fn }] }, null));
  });
  const finish = response.toolCalls?.length ? "tool_calls" : "stop";
  res.write(chunk({}, finish, { usage: usageJson(response) }));
  res.write("data: [DONE]\n\n");
  res.end();
}

function writeJson(res: ServerResponse, model: string, response: MockResponse): void {
  const toolCalls = (response.toolCalls ?? []).map((call) => ({
    id: call.id,
    type: "function",
    function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) },
  }));
  const message = {
    role: "assistant",
    content: response.text ?? "",
    ...(response.reasoning ? { reasoning_content: response.reasoning } : {}),
    ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
  };
  const body = {
    id: `chatcmpl-mock-${++callCounter}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: toolCalls.length ? "tool_calls" : "stop" }],
    usage: usageJson(response),
  };
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export async function startMockLlm(): Promise<MockLlm> {
  const queue: MockResponse[] = [];
  const requests: RecordedRequest[] = [];
  let responder: Responder | undefined;

  const choose = (record: RecordedRequest): MockResponse => {
    const custom = responder?.(record);
    if (custom) return custom;
    if (record.kind === "compaction") return { text: CANNED_SUMMARY };
    if (record.kind === "title") return { text: CANNED_TITLE };
    if (record.kind === "internal") return { text: DEFAULT_TEXT };
    return queue.shift() ?? { text: DEFAULT_TEXT };
  };

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      if (req.method === "GET" && url.pathname.endsWith("/models")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ object: "list", data: [{ id: "mock-model", object: "model", owned_by: "mock" }] }));
        return;
      }
      if (req.method !== "POST" || !url.pathname.endsWith("/chat/completions")) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `mock: no route ${req.method} ${url.pathname}` } }));
        return;
      }
      const raw = await readBody(req);
      const body = JSON.parse(raw.toString("utf8")) as ChatRequestBody;
      const record: RecordedRequest = { kind: classify(body), path: url.pathname, bytes: raw.length, body };
      requests.push(record);
      const response = normalise(choose(record));
      record.response = response;
      if (response.error) {
        res.writeHead(response.error.status, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: response.error.message, type: "mock_error" } }));
        return;
      }
      const model = body.model ?? "mock-model";
      if (body.stream) writeStream(res, model, response);
      else writeJson(res, model, response);
    } catch (err) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `mock failure: ${String(err)}` } }));
    }
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    push: (...responses) => void queue.push(...responses),
    pending: () => queue.length,
    setResponder: (r) => void (responder = r),
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      responder = undefined;
    },
    chatRequests: () => requests.filter((r) => r.kind === "chat"),
    requestsOf: (kind) => requests.filter((r) => r.kind === kind),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
