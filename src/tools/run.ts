// The shell every tool handler runs in: parse the arguments with the tool's schema, answer compact
// JSON, and turn unexpected failures into a short message (the host shows the model only the
// message, never a stack).
//
// OpenCode 1.18.33 passes plugin tool arguments to `execute` unchecked; newer hosts check them
// against the same schema but still pass the raw values. Either way they are parsed here.

import type { z } from "zod";
import { toJson } from "../history/compact.ts";
import { ArgumentError, HistoryError } from "../history/errors.ts";
import { toolCalls } from "../projection/index.ts";
import { object } from "../store/json-fields.ts";
import { isHostRefusal } from "./reach.ts";

export type Shape = z.ZodRawShape;
export type Parsed<S extends Shape> = z.output<z.ZodObject<S>>;

/** Older parameter names still accepted, mapped to the declared one: `{ turn_index: "turn_number" }`. */
export type Aliases = Readonly<Record<string, string>>;

/** Short, printable rendering of a value for an error message (never the whole 10 KB string). */
export function shown(value: unknown, max = 40): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** One issue as the model reads it: the parameter, what is valid, and what was sent. */
function issueMessage(issue: z.core.$ZodIssue, name: string, value: unknown): string {
  if (value === undefined) return `${name} is required: ${issue.message}`;
  if (issue.code === "too_small" && issue.origin === "string") return `${name} must not be empty`;
  if (issue.code === "too_big" && issue.origin === "string") {
    return `${name} is too long: at most ${String(issue.maximum)} characters (got ${typeof value === "string" ? value.trim().length : "?"})`;
  }
  return `${name} must be ${issue.message} (got ${shown(value)})`;
}

/**
 * Parses a tool's arguments with its schema. `null` counts as absent, unknown names are ignored,
 * an alias stands in for its declared name when that is absent. A bad value is an ArgumentError
 * naming the parameter (as the model sent it) and its valid values.
 */
export function parseArgs<S extends Shape>(schema: z.ZodObject<S>, raw: unknown, aliases: Aliases = {}): Parsed<S> {
  const given = raw === undefined || raw === null ? {} : object(raw);
  if (!given) throw new ArgumentError("arguments must be a JSON object of named parameters");
  const args: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(given)) if (value !== null && value !== undefined) args[key] = value;
  const sentAs = new Map<string, string>();
  for (const [alias, name] of Object.entries(aliases)) {
    if (args[name] === undefined && args[alias] !== undefined) {
      args[name] = args[alias];
      sentAs.set(name, alias);
    }
  }
  const result = schema.safeParse(args);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const name = String(issue.path[0] ?? "arguments");
  // An item of a list is named by its place: alternatives[1].
  let value = args[name];
  let named = sentAs.get(name) ?? name;
  for (const key of issue.path.slice(1)) {
    value = (value as Record<PropertyKey, unknown> | undefined)?.[key as PropertyKey];
    named += typeof key === "number" ? `[${key}]` : `.${String(key)}`;
  }
  throw new ArgumentError(issueMessage(issue, named, value));
}

/** An unexpected failure of `tool`, worded for the model: the message only, cut short, never a stack. */
export function unexpectedFailure(tool: string, error: unknown): HistoryError {
  const detail = error instanceof Error ? error.message : String(error);
  return new HistoryError(`${tool} failed unexpectedly (${detail.slice(0, 300)}). Try again, or use another history tool.`);
}

/** Runs a tool's handler, counted as a tool call running from start to end (the projection's build thread gives way meanwhile). */
export async function runTool<S extends Shape>(
  name: string,
  schema: z.ZodObject<S>,
  raw: unknown,
  handler: (args: Parsed<S>) => Promise<unknown>,
  aliases?: Aliases,
): Promise<string> {
  return toolCalls.during(async () => {
    try {
      return toJson(await handler(parseArgs(schema, raw, aliases)));
    } catch (error) {
      if (error instanceof HistoryError || isHostRefusal(error)) throw error;
      throw unexpectedFailure(name, error);
    }
  });
}
