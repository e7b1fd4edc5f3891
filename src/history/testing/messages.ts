// Builders for unit tests: short ways to write messages and parts in the core's shapes, with the
// one id builder every test helper uses.

import type { HistoryMessage, HistoryPart, Role, ToolPart } from "../types.ts";

let counter = 0;

/** Ids that sort in creation order, like the host's, and are unique within a test file. */
export function nextId(prefix: string): string {
  counter++;
  return `${prefix}_${counter.toString(16).padStart(12, "0")}test`;
}

export function user(text: string | HistoryPart[], extra: Partial<HistoryMessage> = {}): HistoryMessage {
  const parts: HistoryPart[] = typeof text === "string" ? [{ kind: "text", id: nextId("prt"), text }] : text;
  return { id: nextId("msg"), sessionId: "ses_test", role: "user", created: 1_800_000_000_000 + counter, parts, ...extra };
}

export function assistant(parts: (HistoryPart | string)[], extra: Partial<HistoryMessage> = {}): HistoryMessage {
  return {
    id: nextId("msg"),
    sessionId: "ses_test",
    role: "assistant",
    created: 1_800_000_000_000 + counter,
    parts: parts.map((part) => (typeof part === "string" ? { kind: "text", id: nextId("prt"), text: part } : part)),
    ...extra,
  };
}

export function toolCall(tool: string, input: unknown, status: ToolPart["status"] = "completed", output?: string): ToolPart {
  return {
    kind: "tool",
    id: nextId("prt"),
    callId: `call_${counter}`,
    tool,
    status,
    input,
    output: status === "completed" ? (output ?? "ok") : undefined,
    error: status === "error" ? (output ?? "failed") : undefined,
  };
}

export function compactionPair(auto = false, tailStartId?: string): HistoryMessage[] {
  return [user([{ kind: "compaction", id: nextId("prt"), auto, tailStartId }]), assistant(["summary text"], { summary: true, agent: "compaction" })];
}

/** A message of one text part (and any `extra` parts) in session `sessionId`. */
export function textMessage(sessionId: string, role: Role, text: string, created: number, extra: HistoryPart[] = []): HistoryMessage {
  return {
    id: nextId("msg"),
    sessionId,
    role,
    created,
    parts: [{ kind: "text", id: nextId("prt"), text }, ...extra],
  };
}

export function toolPart(tool: string, input: unknown, output: string): HistoryPart {
  return { kind: "tool", id: nextId("prt"), callId: nextId("call"), tool, status: "completed", input, output };
}

export function reasoningPart(text: string): HistoryPart {
  return { kind: "reasoning", id: nextId("prt"), text };
}
