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

/**
 * The stored call `callId` as the tests read it. On OpenCode 2 the plugin hands its errors back as
 * content (a rejected promise would be a host defect, src/opencode2/tools.ts), so a history tool's
 * completed call whose output is not JSON reads as the error it is; `part` stays as stored.
 */
export function readToolPart(messages: HostMessage[], callId: string, generation: 1 | 2 = 1): ToolCallResult {
  const part = findToolPart(messages, callId);
  if (!part) throw new Error(`no tool part with callID ${callId} in ${messages.length} messages`);
  const raw = typeof part.state.output === "string" ? part.state.output : undefined;
  const output = parseMaybeJson(raw);
  if (generation === 2 && part.tool.startsWith("history_") && part.state.status === "completed" && typeof output === "string") {
    return { status: "error", output: undefined, raw: undefined, error: output, title: part.state.title, metadata: part.state.metadata, part };
  }
  return {
    status: part.state.status,
    output,
    raw,
    error: part.state.error,
    title: part.state.title,
    metadata: part.state.metadata,
    part,
  };
}

/**
 * The error of a call whose arguments break the tool's schema: 1.x hands them to the plugin, whose
 * own message arrives (`own`); OpenCode 2 checks them against the JSON schema before execute and
 * answers `Invalid arguments for tool "<tool>":\n- <parameter>: …` itself.
 */
export function schemaError(generation: 1 | 2, tool: string, parameter: string, own: RegExp): RegExp {
  return generation === 1 ? own : new RegExp(`^Invalid arguments for tool "${tool}":\\n- ${parameter}:`);
}
