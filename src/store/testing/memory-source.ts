// An in-memory HistorySource for tests, the eval and the bench: sessions in the core's shapes,
// with counters and a switchable fault for assertions.

import { HistoryError } from "../../history/errors.ts";
import type { HistoryMessage, SessionInfo } from "../../history/types.ts";
import type { HistorySource } from "../../history/source.ts";

export class MemorySource implements HistorySource {
  readonly sessions = new Map<string, { info: SessionInfo; messages: HistoryMessage[] }>();
  /** How many times `loadMessages` was called. */
  loads = 0;
  /** How many times `getSession` was called. */
  getSessionCalls = 0;
  /** Makes every `loadMessages` and `loadMessage` fail, as an unavailable store would. */
  failLoads = false;

  add(info: SessionInfo, messages: HistoryMessage[] = []): void {
    this.sessions.set(info.id, { info, messages });
  }

  async listSessions(): Promise<SessionInfo[]> {
    return [...this.sessions.values()].map((s) => s.info).sort((a, b) => (b.updated ?? 0) - (a.updated ?? 0));
  }

  async getSession(sessionId: string): Promise<SessionInfo> {
    this.getSessionCalls++;
    return this.find(sessionId).info;
  }

  async loadMessages(sessionId: string): Promise<HistoryMessage[]> {
    this.loads++;
    if (this.failLoads) throw new Error("store unavailable");
    return this.find(sessionId).messages.slice();
  }

  async loadMessage(sessionId: string, messageId: string): Promise<HistoryMessage | undefined> {
    if (this.failLoads) throw new Error("store unavailable");
    return this.sessions.get(sessionId)?.messages.find((message) => message.id === messageId);
  }

  private find(sessionId: string): { info: SessionInfo; messages: HistoryMessage[] } {
    const found = this.sessions.get(sessionId);
    if (!found) throw new HistoryError(`session ${sessionId} not found; use history_sessions to list the project's sessions`);
    return found;
  }
}
