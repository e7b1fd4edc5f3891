// Test support: a session in the core's message shape, built turn by turn.

import type { HistoryMessage, HistoryPart } from "../types.ts";
import { nextId } from "./messages.ts";

export class SessionBuilder {
  readonly messages: HistoryMessage[] = [];

  constructor(readonly sessionId = "ses_test") {}

  private add(role: "user" | "assistant", parts: HistoryPart[], extra: Partial<HistoryMessage> = {}): HistoryMessage {
    const message: HistoryMessage = { id: nextId("msg"), sessionId: this.sessionId, role, parts, ...extra };
    this.messages.push(message);
    return message;
  }

  user(text: string): HistoryMessage {
    return this.add("user", [{ kind: "text", id: nextId("prt"), text }]);
  }

  assistant(text: string): HistoryMessage {
    return this.add("assistant", [{ kind: "text", id: nextId("prt"), text }], { agent: "build" });
  }

  toolCall(tool: string, input: unknown, output: string): HistoryMessage {
    return this.add("assistant", [{ kind: "tool", id: nextId("prt"), callId: nextId("call"), tool, status: "completed", input, output }], { agent: "build" });
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
    return this.add("user", [{ kind: "compaction", id: nextId("prt"), auto, tailStartId }]);
  }

  summary(text: string): HistoryMessage {
    return this.add("assistant", [{ kind: "text", id: nextId("prt"), text }], { agent: "compaction", summary: true });
  }
}
