// Test support: sessions in the core's message shape, with ids that sort in creation order like
// the host's, and an in-memory HistorySource.

import { HistoryError } from "../../history/errors.ts";
import type { HistoryMessage, HistoryPart, SessionInfo } from "../../history/types.ts";
import type { HistorySource } from "../../host/source.ts";

export class SessionBuilder {
  readonly messages: HistoryMessage[] = [];
  private counter = 0;

  constructor(readonly sessionId = "ses_test") {}

  private nextId(prefix: string): string {
    this.counter++;
    return `${prefix}_${String(this.counter).padStart(6, "0")}`;
  }

  private add(role: "user" | "assistant", parts: HistoryPart[], extra: Partial<HistoryMessage> = {}): HistoryMessage {
    const message: HistoryMessage = { id: this.nextId("msg"), sessionId: this.sessionId, role, parts, ...extra };
    this.messages.push(message);
    return message;
  }

  user(text: string): HistoryMessage {
    return this.add("user", [{ kind: "text", id: this.nextId("prt"), text }]);
  }

  assistant(text: string): HistoryMessage {
    return this.add("assistant", [{ kind: "text", id: this.nextId("prt"), text }], { agent: "build" });
  }

  toolCall(tool: string, input: unknown, output: string): HistoryMessage {
    return this.add(
      "assistant",
      [{ kind: "tool", id: this.nextId("prt"), callId: this.nextId("call"), tool, status: "completed", input, output }],
      { agent: "build" },
    );
  }

  /** `count` turns, each a user message and an assistant reply with long text. */
  turns(count: number, words = 40): this {
    for (let i = 1; i <= count; i++) {
      const filler = Array.from({ length: words }, (_, w) => `word${w}`).join(" ");
      this.user(`Question ${i}: ${filler}`);
      this.assistant(`Answer ${i}: ${filler}`);
    }
    return this;
  }

  compaction(auto = false, tailStartId?: string): HistoryMessage {
    return this.add("user", [{ kind: "compaction", id: this.nextId("prt"), auto, tailStartId }]);
  }

  summary(text: string): HistoryMessage {
    return this.add("assistant", [{ kind: "text", id: this.nextId("prt"), text }], { agent: "compaction", summary: true });
  }
}

export class MemorySource implements HistorySource {
  readonly sessions = new Map<string, SessionInfo>();
  readonly messages = new Map<string, HistoryMessage[]>();
  getSessionCalls = 0;
  failLoads = false;

  addSession(info: SessionInfo, messages: HistoryMessage[] = []): void {
    this.sessions.set(info.id, info);
    this.messages.set(info.id, messages);
  }

  async listSessions(): Promise<SessionInfo[]> {
    return [...this.sessions.values()];
  }

  async getSession(sessionId: string): Promise<SessionInfo> {
    this.getSessionCalls++;
    const info = this.sessions.get(sessionId);
    if (!info) throw new HistoryError(`Session ${sessionId} not found.`);
    return info;
  }

  async loadMessages(sessionId: string): Promise<HistoryMessage[]> {
    if (this.failLoads) throw new Error("store unavailable");
    return this.messages.get(sessionId) ?? [];
  }
}
