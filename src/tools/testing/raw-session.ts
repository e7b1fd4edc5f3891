// Sessions in the host's raw `{info, parts}` JSON, for tests that go through the SDK reader.
// Ids sort in creation order like the host's. Test-only.

import type { RawMessage } from "../../store/reader.ts";

type Json = Record<string, unknown>;

export class RawSessionBuilder {
  readonly messages: RawMessage[] = [];
  private counter = 0;

  constructor(
    readonly sessionId: string,
    private readonly start = 1_800_000_000_000,
  ) {}

  private id(prefix: "msg" | "prt"): string {
    this.counter++;
    return `${prefix}_${this.counter.toString(16).padStart(12, "0")}${this.sessionId.slice(4, 12)}`;
  }

  /** Appends a message; parts get ids, `info` may override any field (or drop one with undefined). */
  add(role: "user" | "assistant", parts: Json[], info: Json = {}): RawMessage {
    const id = this.id("msg");
    const message: RawMessage = {
      info: { id, sessionID: this.sessionId, role, time: { created: this.start + this.counter }, agent: "build", ...info },
      parts: parts.map((part) => ({ id: this.id("prt"), sessionID: this.sessionId, messageID: id, ...part })),
    };
    this.messages.push(message);
    return message;
  }

  user(text: string, extra: Json[] = []): RawMessage {
    return this.add("user", [{ type: "text", text }, ...extra]);
  }

  assistant(text: string, extra: Json[] = [], info: Json = {}): RawMessage {
    return this.add("assistant", [{ type: "step-start" }, ...extra, { type: "text", text }, { type: "step-finish", reason: "stop" }], info);
  }

  static tool(tool: string, input: unknown, status = "completed", output = "ok"): Json {
    const state: Json = { status, input };
    if (status === "completed") state.output = output;
    if (status === "error") state.error = output;
    return { type: "tool", callID: `call_${tool}`, tool, state };
  }

  /** A manual compaction: the request and the summary. */
  compaction(): void {
    this.add("user", [{ type: "compaction", auto: false }]);
    this.add("assistant", [{ type: "text", text: "summary" }], { summary: true, agent: "compaction" });
  }

  /** An ordinary session with every kind of part the host stores, and a compaction in the middle. */
  static ordinary(sessionId: string, childId?: string): RawSessionBuilder {
    const b = new RawSessionBuilder(sessionId);
    b.user("Decision: rate limiter is a token bucket, 100 req/min per key.");
    b.assistant("Agreed: a token bucket.", [{ type: "reasoning", text: "Think about limits." }]);
    b.user("Create src/limiter.ts", [{ type: "file", mime: "text/plain", filename: "notes.txt", url: "file:///project/notes.txt" }]);
    b.assistant("Created it.", [
      RawSessionBuilder.tool("bash", { command: "echo hi" }, "completed", "hi\n"),
      RawSessionBuilder.tool("write", { filePath: "/project/src/limiter.ts", content: "export const LIMIT = 100;\n" }),
      RawSessionBuilder.tool("edit", { filePath: "/project/src/limiter.ts", oldString: "X" }, "error", "oldString not found"),
      { type: "patch", hash: "abc", files: ["/project/src/limiter.ts"] },
    ]);
    b.add("user", [{ type: "subtask", prompt: "Review the limiter.", description: "Review", agent: "general" }]);
    b.add("assistant", [
      RawSessionBuilder.tool("task", { description: "Review", prompt: "Review the limiter." }, "completed", `<task id="${childId ?? "ses_child"}">fine</task>`),
    ]);
    b.compaction();
    b.user("What next?");
    b.assistant("Continuing after compaction.");
    return b;
  }
}
