// The raw reads a history source needs, in the host's own `{info, parts}` JSON shape.
// Two implementations: the SDK client (always) and a read-only SQLite fast path (Bun only).

export interface RawMessage {
  info: unknown;
  parts: unknown[];
}

export interface HistoryReader {
  /** Every message of the session, oldest first. */
  readAll(sessionId: string): Promise<RawMessage[]>;
  /** The newest `count` messages, oldest first. */
  readNewest(sessionId: string, count: number): Promise<RawMessage[]>;
  /** One message, or undefined when it no longer exists. */
  readOne(sessionId: string, messageId: string): Promise<RawMessage | undefined>;
  listSessions(): Promise<unknown[]>;
  /** The session's info, or undefined when it does not exist. */
  getSession(sessionId: string): Promise<unknown | undefined>;
}
