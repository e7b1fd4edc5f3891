// What the rest of the plugin needs from the host: sessions and their messages, read-only. A
// contract of the core (search/ and the hooks take it), so it lives here, not in host/: the host
// adapters (store/cached-source.ts) implement it; tests implement it over fixtures.

import type { HistoryMessage, SessionInfo } from "./types.ts";

export interface LoadOptions {
  /** The caller's cancellation (the tool context's abort signal). */
  signal?: AbortSignal;
  /**
   * false: a session not kept yet is read without being kept (a many-session search reads
   * sessions it will not read again; kept, they filled the memory and evicted those in use).
   */
  keep?: boolean;
}

export interface HistorySource {
  /** Every session of the project, children included, newest first. */
  listSessions(): Promise<SessionInfo[]>;
  /** Every session of every project, newest first; absent when the host's store cannot be read directly. */
  listEverySession?(callerSessionId: string): Promise<SessionInfo[]>;
  /** One session's info as first read, cached: for what never changes, such as its directory. */
  sessionOnce?(sessionId: string, callerSessionId?: string): Promise<SessionInfo>;
  /** One session's info; throws HistoryError naming the id when it does not exist. */
  getSession(sessionId: string): Promise<SessionInfo>;
  /**
   * All messages of a session, chronological. The list is never changed once returned (a change
   * gives a new list), so callers may key derived data by it. Cached and refreshed incrementally:
   * message objects are immutable, so an unchanged message is the same object as last time
   * and a changed one is a new object (callers may track changes by identity).
   */
  loadMessages(sessionId: string, options?: LoadOptions): Promise<HistoryMessage[]>;
  /**
   * One message of a session as loadMessages gives it (the same object while the session's cached
   * list is current), undefined when the session has no such message; reads only that message
   * otherwise, for callers that need a few messages of many sessions.
   */
  loadMessage?(sessionId: string, messageId: string, options?: LoadOptions): Promise<HistoryMessage | undefined>;
}
