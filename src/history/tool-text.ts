// Plain-text renderings of a tool call, shared by pulls and search so both see the same words.

import type { ToolPart } from "./types.ts";
import type { ToolVisibility } from "./tool-visibility.ts";

function renderValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (value === undefined) return "undefined";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** `bash(command="ls -la", timeout=5)`: the call as the model made it. */
export function toolCallSignature(part: ToolPart): string {
  const input = part.input;
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    return input === undefined || input === null ? `${part.tool}()` : `${part.tool}(${renderValue(input)})`;
  }
  const args = Object.entries(input as Record<string, unknown>).map(([key, value]) => `${key}=${renderValue(value)}`);
  return `${part.tool}(${args.join(", ")})`;
}

/** What the call produced: its output, or its error text. */
export function toolResultText(part: ToolPart): string | undefined {
  if (part.status === "error") return part.error ?? part.output;
  return part.output;
}

/** Full text of a tool part under the visibility rules: signature, `---`, result. */
export function toolPartText(part: ToolPart, visibility: ToolVisibility): string {
  const pieces: string[] = [];
  if (visibility.input(part.tool)) pieces.push(toolCallSignature(part));
  if (visibility.output(part.tool)) {
    const result = toolResultText(part);
    if (result) pieces.push(result);
  }
  return pieces.join("\n---\n");
}
