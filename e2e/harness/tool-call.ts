// Reads back the result of a tool call the mock model made, from the stored session history.
import { isToolPart, type HostMessage, type HostToolPart } from "./types.ts";

export interface ToolCallResult {
  status: HostToolPart["state"]["status"];
  /** The tool output parsed as JSON when it parses, else the raw string. */
  output: unknown;
  /** The raw output string (undefined unless completed). */
  raw: string | undefined;
  error: string | undefined;
  title: string | undefined;
  metadata: Record<string, unknown> | undefined;
  part: HostToolPart;
}

export function findToolPart(messages: HostMessage[], callId: string): HostToolPart | undefined {
  for (const m of messages) for (const p of m.parts) if (isToolPart(p) && p.callID === callId) return p;
  return undefined;
}

export function toolParts(messages: HostMessage[], tool?: string): HostToolPart[] {
  return messages.flatMap((m) => m.parts.filter(isToolPart)).filter((p) => tool === undefined || p.tool === tool);
}

export function parseMaybeJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function readToolPart(messages: HostMessage[], callId: string): ToolCallResult {
  const part = findToolPart(messages, callId);
  if (!part) throw new Error(`no tool part with callID ${callId} in ${messages.length} messages`);
  const raw = typeof part.state.output === "string" ? part.state.output : undefined;
  return {
    status: part.state.status,
    output: parseMaybeJson(raw),
    raw,
    error: part.state.error,
    title: part.state.title,
    metadata: part.state.metadata,
    part,
  };
}
