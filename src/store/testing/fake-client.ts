// An in-memory stand-in for the SDK client's session API, with the host's paging semantics
// (newest `limit` messages, `before` cursor in X-Next-Cursor) and switchable faults. Test-only.

import type { RawMessage } from "../reader.ts";
import type { SdkResult, SessionClient } from "../sdk-reader.ts";

export interface FakeFaults {
  /** Status to answer every call with (e.g. 500). */
  status?: number;
  /** Never answer. */
  hang?: boolean;
  /** Ignore the `before` cursor and always send the newest page. */
  ignoreCursor?: boolean;
  /** Reject every call (a network failure rather than an HTTP status). */
  reject?: boolean;
}

export interface FakeSession {
  info: Record<string, unknown>;
  messages: RawMessage[];
}

function headers(values: Record<string, string>) {
  return { get: (name: string) => values[name.toLowerCase()] ?? null };
}

function idOf(entry: RawMessage): string {
  return (entry.info as { id: string }).id;
}

export class FakeClient implements SessionClient {
  readonly sessions = new Map<string, FakeSession>();
  faults: FakeFaults = {};
  /** Every call, for assertions: method name and arguments. */
  readonly calls: { method: string; args: unknown }[] = [];
  /** Lines logged through `app.log`. */
  readonly logs: { level: string; message: string }[] = [];
  /**
   * Answer copies, as a server would (default). Off for sessions of many megabytes: deep-freeze
   * them instead, so a plugin that mutated what it read would throw.
   */
  cloneReads = true;
  /** Runs before every session call is answered (e.g. to change the session mid-read). */
  beforeAnswer?: (method: string, args: unknown) => void;

  private answer<T>(method: string, args: unknown, produce: () => SdkResult<T>): Promise<SdkResult<T>> {
    this.calls.push({ method, args });
    this.beforeAnswer?.(method, args);
    if (this.faults.reject) return Promise.reject(new Error("socket hang up"));
    if (this.faults.hang) return new Promise(() => {});
    if (this.faults.status) {
      return Promise.resolve({ error: { message: "fault" }, response: { status: this.faults.status, headers: headers({}) } });
    }
    return Promise.resolve(produce());
  }

  private missing<T>(): SdkResult<T> {
    return { error: { name: "NotFoundError" }, response: { status: 404, headers: headers({}) } };
  }

  session = {
    list: (options?: unknown) =>
      this.answer("session.list", options, () => ({
        data: [...this.sessions.values()].map((session) => session.info),
        response: { status: 200, headers: headers({}) },
      })),
    get: (options: { path: { id: string } }) =>
      this.answer("session.get", options, () => {
        const session = this.sessions.get(options.path.id);
        return session ? { data: session.info, response: { status: 200, headers: headers({}) } } : this.missing();
      }),
    messages: (options: { path: { id: string }; query?: Record<string, unknown> }) =>
      this.answer("session.messages", options, () => {
        const session = this.sessions.get(options.path.id);
        if (!session) return this.missing<unknown[]>();
        const limit = typeof options.query?.limit === "number" ? options.query.limit : 0;
        const before = this.faults.ignoreCursor ? undefined : (options.query?.before as string | undefined);
        let pool = session.messages;
        if (before) pool = pool.filter((entry) => idOf(entry) < before);
        const page = limit > 0 ? pool.slice(-limit) : pool;
        const more = limit > 0 && pool.length > limit;
        return {
          data: this.cloneReads ? structuredClone(page) : page,
          response: { status: 200, headers: headers(more ? { "x-next-cursor": idOf(page[0]!) } : {}) },
        };
      }),
    message: (options: { path: { id: string; messageID: string } }) =>
      this.answer("session.message", options, () => {
        const entry = this.sessions.get(options.path.id)?.messages.find((m) => idOf(m) === options.path.messageID);
        return entry ? { data: this.cloneReads ? structuredClone(entry) : entry, response: { status: 200, headers: headers({}) } } : this.missing();
      }),
    children: (options: { path: { id: string } }) =>
      this.answer("session.children", options, () => ({
        data: [...this.sessions.values()].map((session) => session.info).filter((info) => info.parentID === options.path.id),
        response: { status: 200, headers: headers({}) },
      })),
  };

  app = {
    log: (options: { body: { level: string; message: string } }) => {
      this.logs.push({ level: options.body.level, message: options.body.message });
      return Promise.resolve({ data: true });
    },
  };

  addSession(id: string, messages: RawMessage[], extra: Record<string, unknown> = {}): FakeSession {
    const session = { info: { id, title: `title of ${id}`, time: { created: 1, updated: 2 }, ...extra }, messages };
    this.sessions.set(id, session);
    return session;
  }
}

/** Id number `n` of a message or part: ids sort by number, and rawText reads it back as the creation time. */
export function rawId(prefix: "msg" | "prt", n: number): string {
  return `${prefix}_${String(n).padStart(8, "0")}`;
}

/** A raw `{info, parts}` text message in the host's shape; its one part's id has the message's number. */
export function rawText(sessionId: string, id: string, role: "user" | "assistant", text: string): RawMessage {
  return {
    info: { id, sessionID: sessionId, role, time: { created: Number.parseInt(id.slice(4), 10) || 0 } },
    parts: [{ id: `prt_${id.slice(4)}`, sessionID: sessionId, messageID: id, type: "text", text }],
  };
}

/** Freezes a value and everything it holds. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
