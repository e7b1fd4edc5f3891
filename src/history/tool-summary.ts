// "2× grep", "1× edit: 1× error" and an outcome for a set of tool calls.

import type { HistoryMessage, ToolPart } from "./types.ts";

type ToolOutcome = "completed" | "recovered" | "error" | "running";

export interface ToolSummary {
  calls: string[];
  outcome: ToolOutcome;
}

export function toolParts(messages: readonly HistoryMessage[]): ToolPart[] {
  const out: ToolPart[] = [];
  for (const message of messages) for (const part of message.parts) if (part.kind === "tool") out.push(part);
  return out;
}

export function summarizeTools(calls: readonly ToolPart[]): ToolSummary | undefined {
  if (calls.length === 0) return undefined;
  const counts = new Map<string, { total: number; errors: number }>();
  for (const call of calls) {
    const count = counts.get(call.tool) ?? { total: 0, errors: 0 };
    count.total++;
    if (call.status === "error") count.errors++;
    counts.set(call.tool, count);
  }
  const lines = [...counts].map(([tool, { total, errors }]) => (errors > 0 ? `${total}× ${tool}: ${errors}× error` : `${total}× ${tool}`));
  return { calls: lines, outcome: outcomeOf(calls) };
}

function outcomeOf(calls: readonly ToolPart[]): ToolOutcome {
  if (calls.some((call) => call.status === "running" || call.status === "pending")) return "running";
  const lastError = calls.findLastIndex((call) => call.status === "error");
  if (lastError < 0) return "completed";
  // An error counts as recovered once a later call succeeded.
  return calls.slice(lastError + 1).some((call) => call.status === "completed") ? "recovered" : "error";
}
