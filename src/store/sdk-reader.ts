// Reads through the plugin's SDK client: the supported, always-available path.

import { HistoryError } from "../history/errors.ts";
import { checkpoint, type HistoryReader, type RawMessage } from "./reader.ts";

/**
 * The slice of the SDK client this reader uses (the real client satisfies it). Every request
 * takes a `signal`: @opencode-ai/sdk 1.18.33's request options extend RequestInit and are spread
 * into the Request it fetches (dist/gen/client/types.gen.d.ts, client.gen.js).
 */
export interface SessionClient {
  session: {
    list(options?: { signal?: AbortSignal }): Promise<SdkResult<unknown[]>>;
    get(options: { path: { id: string }; signal?: AbortSignal }): Promise<SdkResult<unknown>>;
    messages(options: { path: { id: string }; query?: Record<string, unknown>; signal?: AbortSignal }): Promise<SdkResult<unknown[]>>;
    message(options: { path: { id: string; messageID: string }; signal?: AbortSignal }): Promise<SdkResult<unknown>>;
  };
}

export interface SdkResult<T> {
  data?: T;
  error?: unknown;
  response?: { status: number; headers: { get(name: string): string | null } };
}

export interface SdkReaderOptions {
  pageSize: number;
  timeoutMs: number;
}

/**
 * One request, cancelled through its signal when it times out or the caller cancels (rejecting
 * with the caller's reason). The answer is still raced against the cancellation: a host's own
 * in-process fetch need not honour the signal.
 */
async function call<T>(
  what: string,
  timeoutMs: number,
  cancel: AbortSignal | undefined,
  run: (signal: AbortSignal) => Promise<SdkResult<T>>,
): Promise<SdkResult<T>> {
  cancel?.throwIfAborted();
  const controller = new AbortController();
  const stop = () => controller.abort(cancel!.reason);
  cancel?.addEventListener("abort", stop, { once: true });
  const timer = setTimeout(() => controller.abort(new HistoryError(`Reading ${what} timed out after ${timeoutMs} ms; try again.`)), timeoutMs);
  const cancelled = new Promise<never>((_, reject) => {
    controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true });
  });
  try {
    return await Promise.race([run(controller.signal), cancelled]);
  } catch (error) {
    if (controller.signal.aborted) throw controller.signal.reason;
    if (error instanceof HistoryError) throw error;
    throw new HistoryError(`Reading ${what} failed (${error instanceof Error ? error.message : String(error)}); try again.`);
  } finally {
    clearTimeout(timer);
    cancel?.removeEventListener("abort", stop);
  }
}

function status(result: SdkResult<unknown>): number | undefined {
  return result.response?.status;
}

function failure(what: string, result: SdkResult<unknown>): HistoryError {
  const code = status(result);
  return new HistoryError(`Reading ${what} failed${code ? ` (status ${code})` : ""}; this may be temporary, try again.`);
}

function isEntry(value: unknown): value is RawMessage {
  return value !== null && typeof value === "object" && "info" in value;
}

function entries(data: unknown): RawMessage[] {
  return Array.isArray(data) ? data.filter(isEntry).map((entry) => ({ info: entry.info, parts: Array.isArray(entry.parts) ? entry.parts : [] })) : [];
}

function idOf(entry: RawMessage): string | undefined {
  const info = entry.info as { id?: unknown } | null;
  return typeof info?.id === "string" ? info.id : undefined;
}

export function createSdkReader(client: SessionClient, options: SdkReaderOptions): HistoryReader {
  const { pageSize, timeoutMs } = options;

  async function page(sessionId: string, limit: number | undefined, before?: string, cancel?: AbortSignal) {
    const query: Record<string, unknown> = {};
    if (limit !== undefined) query.limit = limit;
    if (before) query.before = before;
    const what = `the messages of session ${sessionId}`;
    const result = await call(what, timeoutMs, cancel, (signal) => client.session.messages({ path: { id: sessionId }, query, signal }));
    if (status(result) === 404) {
      throw new HistoryError(`Session ${sessionId} not found. Use history_sessions to list this project's sessions.`);
    }
    if (result.error !== undefined || !Array.isArray(result.data)) throw failure(what, result);
    return { messages: entries(result.data), cursor: result.response?.headers.get("x-next-cursor") ?? undefined };
  }

  return {
    async readAll(sessionId, options = {}) {
      // Page backwards with the host's cursor so no single response is huge.
      const pages: RawMessage[][] = [];
      const seen = new Set<string>();
      let before: string | undefined;
      for (;;) {
        await checkpoint(options);
        const { messages, cursor } = await page(sessionId, pageSize, before, options.signal);
        const fresh = messages.filter((entry) => {
          const id = idOf(entry);
          return id !== undefined && !seen.has(id);
        });
        if (before !== undefined && fresh.length === 0 && messages.length > 0) {
          // The server ignored the cursor and sent the newest page again: read everything at once.
          return (await page(sessionId, undefined, undefined, options.signal)).messages;
        }
        for (const entry of fresh) seen.add(idOf(entry)!);
        pages.push(fresh);
        if (!cursor || messages.length < pageSize) break;
        before = cursor;
      }
      return pages.reverse().flat();
    },

    async readNewest(sessionId, count) {
      return (await page(sessionId, count)).messages;
    },

    async readOne(sessionId, messageId) {
      const what = `message ${messageId}`;
      const result = await call(what, timeoutMs, undefined, (signal) => client.session.message({ path: { id: sessionId, messageID: messageId }, signal }));
      if (status(result) === 404) return undefined;
      if (result.error !== undefined || !isEntry(result.data)) throw failure(what, result);
      return { info: result.data.info, parts: Array.isArray(result.data.parts) ? result.data.parts : [] };
    },

    async listSessions() {
      const result = await call("the session list", timeoutMs, undefined, (signal) => client.session.list({ signal }));
      if (result.error !== undefined || !Array.isArray(result.data)) throw failure("the session list", result);
      return result.data;
    },

    async getSession(sessionId) {
      const what = `session ${sessionId}`;
      const result = await call(what, timeoutMs, undefined, (signal) => client.session.get({ path: { id: sessionId }, signal }));
      if (status(result) === 404) return undefined;
      if (result.error !== undefined || result.data === undefined) throw failure(what, result);
      return result.data;
    },
  };
}
