// Builders for unit tests: short ways to write sessions in the core's shapes.

import type { HistoryMessage, HistoryPart, ToolPart } from "./types.ts";

let counter = 0;

/** Ids that sort in creation order, like the host's. */
export function nextId(prefix: "msg" | "prt"): string {
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
  return [
    user([{ kind: "compaction", id: nextId("prt"), auto, tailStartId }]),
    assistant(["summary text"], { summary: true, agent: "compaction" }),
  ];
}
