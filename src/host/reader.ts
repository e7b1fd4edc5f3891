// The raw reads a history source needs, in the host's own `{info, parts}` JSON shape.
// Two implementations: the SDK client (always) and a read-only SQLite fast path (Bun only).

export interface RawMessage {
  info: unknown;
  parts: unknown[];
}

export interface MessageReads {
  /** Every message of the session, oldest first. */
  readAll(sessionId: string): Promise<RawMessage[]>;
  /** The newest `count` messages, oldest first. */
  readNewest(sessionId: string, count: number): Promise<RawMessage[]>;
  /** One message, or undefined when it no longer exists. */
  readOne(sessionId: string, messageId: string): Promise<RawMessage | undefined>;
}

export interface HistoryReader extends MessageReads {
  listSessions(): Promise<unknown[]>;
  /**
   * Optional cheap change detection (the SQLite path): a stamp that changes with every write to
   * the session, and the ids of messages written at or after a time.
   */
  stamp?(sessionId: string): Promise<SessionStamp | undefined>;
  changedSince?(sessionId: string, updated: number): Promise<string[]>;
  /**
   * Every session of every project in the store holding `probeSessionId` (the SQLite path only;
   * the SDK lists one project's sessions).
   */
  everySession?(probeSessionId: string): Promise<unknown[]>;
  /** The session's info, or undefined when it does not exist. */
  getSession(sessionId: string): Promise<unknown | undefined>;
  /** Releases what the reader holds open (the SQLite handle); reads after it go through the SDK. */
  close?(): Promise<void>;
}

export interface SessionStamp {
  messages: number;
  parts: number;
  /** Latest write time of any message or part. */
  updated: number;
}
