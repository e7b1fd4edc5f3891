// Plain-text renderings of a tool call, shared by pulls and search so both see the same words.

import type { ToolPart } from "./types.ts";
import type { ToolVisibility } from "./tool-visibility.ts";

/** True for an argument worth no words: empty string, null, undefined, empty array or object. */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "object") return Object.keys(value).length === 0;
  return false;
}

/**
 * A value as the text it is: strings verbatim between quotes (real newlines and quotes, no JSON
 * escapes, so a command's or a file's lines are searched and shown as written), arrays and
 * objects with the same rule inside, empty members left out.
 */
function renderValue(value: unknown, depth = 0): string {
  if (typeof value === "string") return `"${value}"`;
  if (value === undefined) return "undefined";
  if (depth < 8 && Array.isArray(value))
    return `[${value
      .filter((item) => !isEmpty(item))
      .map((item) => renderValue(item, depth + 1))
      .join(", ")}]`;
  if (depth < 8 && value !== null && typeof value === "object") return `{${renderArgs(value as Record<string, unknown>, depth + 1)}}`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function renderArgs(input: Record<string, unknown>, depth: number): string {
  return Object.entries(input)
    .filter(([, value]) => !isEmpty(value))
    .map(([key, value]) => `${key}=${renderValue(value, depth)}`)
    .join(", ");
}

/** The first of the named input arguments that holds a non-blank string (a command, a path, a patch). */
export function inputString(input: unknown, ...names: string[]): string | undefined {
  if (input === null || typeof input !== "object") return undefined;
  for (const name of names) {
    const value = (input as Record<string, unknown>)[name];
    if (typeof value === "string" && value.trim() !== "") return value;
  }
  return undefined;
}

/** `bash(command="ls -la", timeout=5)`: the call as the model made it, empty arguments left out. */
export function toolCallSignature(part: ToolPart): string {
  const input = part.input;
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    return isEmpty(input) ? `${part.tool}()` : `${part.tool}(${renderValue(input)})`;
  }
  return `${part.tool}(${renderArgs(input as Record<string, unknown>, 0)})`;
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
