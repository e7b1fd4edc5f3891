// What the rest of the plugin needs from the host: sessions and their messages, read-only.
// The SDK adapter implements it; tests implement it over fixtures.

import type { HistoryMessage, SessionInfo } from "../history/types.ts";

export interface HistorySource {
  /** Every session of the project, children included, newest first. */
  listSessions(): Promise<SessionInfo[]>;
  /** Every session of every project, newest first; absent when the host's store cannot be read directly. */
  listEverySession?(callerSessionId: string): Promise<SessionInfo[]>;
  /** One session's info as first read, cached: for what never changes, such as its directory. */
  sessionOnce?(sessionId: string): Promise<SessionInfo>;
  /** One session's info; throws HistoryError naming the id when it does not exist. */
  getSession(sessionId: string): Promise<SessionInfo>;
  /**
   * All messages of a session, chronological. Cached and refreshed incrementally:
   * message objects are immutable, so an unchanged message is the same object as last time
   * and a changed one is a new object (callers may track changes by identity).
   */
  loadMessages(sessionId: string): Promise<HistoryMessage[]>;
}
