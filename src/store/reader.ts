// The raw reads a history source needs, in the host's own JSON shape, and how that shape becomes
// the core's types. OpenCode 1.x readers (the SDK client, and a read-only SQLite fast path) give
// `{info, parts}` entries; the OpenCode 2 reader gives `session_message` rows. Each generation
// brings its own decoder, so nothing above the host adapter knows which one it reads.

import type { HistoryMessage, SessionInfo } from "../history/types.ts";

/** An OpenCode 1.x message as its SDK and its store give it. */
export interface RawMessage {
  info: unknown;
  parts: unknown[];
}

/** A host generation's raw shapes into the core's types; defensive, never throws. */
export interface HostDecode<Raw> {
  /** undefined when the entry carries no history (or is malformed). */
  message(raw: Raw, sessionId: string): HistoryMessage | undefined;
  session(raw: unknown): SessionInfo | undefined;
}

/** Raw session entries in the core's shape; an entry that is not a session is left out. */
export function decodeSessions<Raw>(raw: readonly unknown[], decode: HostDecode<Raw>): SessionInfo[] {
  return raw.map((entry) => decode.session(entry)).filter((session): session is SessionInfo => session !== undefined);
}

/** How a long read shares the event loop and stops. */
export interface ReadOptions {
  /** A cancelled read stops at its next piece and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called between pieces of work; when it returns a promise (a turn of the event loop is due), the read awaits it. */
  pause?: () => Promise<void> | undefined;
}

/**
 * Between two pieces of a long read: throws when cancelled; when the event loop is due a turn, a
 * promise to await (rejecting if the read was cancelled meanwhile), else undefined. Hot loops
 * await only a promise: an await per message costs microseconds, whole milliseconds per MB.
 */
export function checkpoint(options: ReadOptions): Promise<void> | undefined {
  options.signal?.throwIfAborted();
  return options.pause?.()?.then(() => options.signal?.throwIfAborted());
}

/**
 * Raw messages in the core's shape (an entry carrying no history is left out), pausing between
 * them as `options` says; `each` sees every message as it is decoded.
 */
export async function decodeMessages<Raw>(
  raw: readonly Raw[],
  sessionId: string,
  decode: HostDecode<Raw>,
  options: ReadOptions = {},
  each?: (message: HistoryMessage) => void,
): Promise<HistoryMessage[]> {
  const out: HistoryMessage[] = [];
  for (const entry of raw) {
    const message = decode.message(entry, sessionId);
    if (message) {
      out.push(message);
      each?.(message);
    }
    const due = checkpoint(options);
    if (due) await due;
  }
  return out;
}

export interface MessageReads<Raw = RawMessage> {
  /** Every message of the session, oldest first. */
  readAll(sessionId: string, options?: ReadOptions): Promise<Raw[]>;
  /** The newest `count` messages, oldest first. */
  readNewest(sessionId: string, count: number): Promise<Raw[]>;
  /** One message, or undefined when it no longer exists. */
  readOne(sessionId: string, messageId: string): Promise<Raw | undefined>;
}

export interface HistoryReader<Raw = RawMessage> extends MessageReads<Raw> {
  listSessions(): Promise<unknown[]>;
  /**
   * Optional cheap change detection (the SQLite path): a stamp that changes with every write to
   * the session, and the ids of the messages written since an earlier stamp.
   */
  stamp?(sessionId: string): Promise<SessionStamp | undefined>;
  /** The stamps of many sessions at once, each as `stamp` gives it (a session the store lacks is absent). */
  stamps?(sessionIds: readonly string[]): Promise<Map<string, SessionStamp> | undefined>;
  /** Messages written (or removed) since `since`; undefined when the store cannot tell (read all). */
  changedSince?(sessionId: string, since: SessionStamp): Promise<string[] | undefined>;
  /**
   * A few store-wide facts that move whenever the host writes history (the SQLite paths); equal
   * marks mean nothing was written between them. undefined when the store is not open.
   */
  watermark?(): Promise<string | undefined>;
  /**
   * The sessions with history written since `mark` (an earlier `watermark`); undefined when the
   * store cannot say (a mark of another store or generation, rows pruned or removed, too much
   * written since): compare each session's stamp then.
   */
  sessionsChangedSince?(mark: string): Promise<string[] | undefined>;
  /**
   * Every session of every project in the store holding `probeSessionId` (the SQLite path only;
   * the SDK lists one project's sessions).
   */
  everySession?(probeSessionId: string): Promise<unknown[]>;
  /** The session's info, or undefined when it does not exist. */
  getSession(sessionId: string): Promise<unknown | undefined>;
  /**
   * The session's info read from the store itself (the SQLite path), without a request to the
   * host, or undefined when the store cannot say (not open, not holding it): ask getSession then.
   * It lacks what only the host adds (the agent). `probeSessionId`, a session known to exist (the
   * caller's own), may open the store; without it (or empty) only a store already open answers, so a
   * mistyped id never becomes the probe that decides whether the store is usable.
   */
  storedSession?(sessionId: string, probeSessionId?: string): Promise<unknown | undefined>;
  /**
   * The store file the reader reads sessions from, opening it with `probeSessionId` if needed;
   * undefined when it reads none (the SDK alone). A projection of the store is keyed by it.
   */
  storePath?(probeSessionId: string): Promise<string | undefined>;
  /** Releases what the reader holds open (the SQLite handle); reads after it go through the SDK. */
  close?(): Promise<void>;
}

/** Cheap to take: index lookups (OpenCode 1.x); OpenCode 2 adds one scan of the session's row times when its event sequence moved. */
export interface SessionStamp {
  /** The host's own per-session event sequence: every message and part write the host makes adds one (-1: none yet). */
  seq: number;
  /**
   * Highest row id of the session's parts (OpenCode 1.x) or highest `seq` of its message rows
   * (OpenCode 2): rows written outside the host's events (`opencode import`), new rows.
   */
  rows: number;
  /** OpenCode 2: how many message rows the session has, so a removal (a revert) is noticed. */
  count?: number;
  /** OpenCode 2: the newest `time_updated` of the session's message rows, to find rows rewritten in place. */
  updated?: number;
}
