import { describe, expect, it } from "vitest";
import type { HistoryMessage } from "../../src/history/types.ts";
import { findMessage, formatMessage } from "./show.ts";
import type { RealSession } from "./sessions.ts";

const message: HistoryMessage = {
  id: "msg_1",
  sessionId: "ses_1",
  role: "assistant",
  summary: true,
  parts: [
    { kind: "reasoning", id: "p1", text: "thinking it over" },
    { kind: "text", id: "p2", text: "line one\nline two" },
    { kind: "tool", id: "p3", callId: "c1", tool: "bash", status: "completed", input: { command: "ls -la\npwd", description: "" }, output: "a.txt\nb.txt" },
    { kind: "tool", id: "p4", callId: "c2", tool: "read", status: "error", input: { filePath: "/x" }, error: "File does not exist." },
    { kind: "patch", id: "p5", files: ["/repo/a.ts", "/repo/b.ts"] },
  ],
};

describe("formatMessage", () => {
  it("prints every part in full: text as written, tool input as the call made it, output or error after it", () => {
    expect(formatMessage("dev-session", message)).toBe(
      [
        "=== dev-session/msg_1 (assistant, summary)",
        "[reasoning]\nthinking it over",
        "[text]\nline one\nline two",
        '[tool bash, completed]\nbash(command="ls -la\npwd")\n[output]\na.txt\nb.txt',
        '[tool read, error]\nread(filePath="/x")\n[error]\nFile does not exist.',
        "[patch] /repo/a.ts, /repo/b.ts",
      ].join("\n"),
    );
  });

  it("prints a tool call that has no result yet without an output section", () => {
    const pending: HistoryMessage = {
      id: "msg_2",
      sessionId: "ses_1",
      role: "assistant",
      parts: [{ kind: "tool", id: "p1", callId: "c1", tool: "bash", status: "running", input: { command: "sleep 9" } }],
    };
    expect(formatMessage("s", pending)).toBe('=== s/msg_2 (assistant)\n[tool bash, running]\nbash(command="sleep 9")');
  });
});

describe("findMessage", () => {
  it("finds a message by id in any session and says which session holds it", () => {
    const sessions = [
      { name: "first", info: { id: "ses_a", title: "a" }, messages: [] },
      { name: "second", info: { id: "ses_1", title: "b" }, messages: [message] },
    ] as RealSession[];
    expect(findMessage(sessions, "msg_1")?.session.name).toBe("second");
    expect(findMessage(sessions, "msg_none")).toBeUndefined();
  });
});
