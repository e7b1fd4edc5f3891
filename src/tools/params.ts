// The argument contract of the history tools: zod schemas the model sees as JSON Schema (types,
// ranges, enums) and that parse what it sends. Each schema's error text is the plain description of
// its valid values ("an integer from 0 to 100"); run.ts words it into a message naming the parameter.
//
// The host builds the JSON Schema with zod's `io: "input"`, in which a preprocess step is invisible,
// so the coercions below (decimal strings to numbers, "true"/"false" to booleans) keep the schema
// the model sees plain.

import { tool } from "@opencode-ai/plugin";
import { MAX_WINDOW_ARG } from "../history/limits.ts";

const z = tool.schema;

/** Models often send numbers as strings; plain decimal integers only ("1e3", "0x10" stay strings). */
function decimal(value: unknown): unknown {
  return typeof value === "string" && /^\s*-?\d{1,16}\s*$/.test(value) ? Number(value) : value;
}

function truth(value: unknown): unknown {
  return value === "true" ? true : value === "false" ? false : value;
}

export function integer(min: number, max: number) {
  const error = `an integer from ${min} to ${max}`;
  return z.preprocess(decimal, z.number({ error }).int({ error }).min(min, { error }).max(max, { error }));
}

/**
 * An integer whose ceiling only guards against absurd input (a turn number, an offset: the model
 * takes them from earlier answers): checked with the same message, but left out of the JSON
 * Schema, which every request carries (issue 11's budget). zod's int() would put its own ceiling
 * (2^53 - 1) there, so whole numbers are checked here too and the type is stated as metadata.
 */
export function integerUpTo(min: number, max: number) {
  const error = `an integer from ${min} to ${max}`;
  return z.preprocess(
    decimal,
    z
      .number({ error })
      .min(min, { error })
      .check((ctx) => {
        if (!Number.isInteger(ctx.value) || ctx.value > max) ctx.issues.push({ code: "custom", message: error, input: ctx.value });
      })
      .meta({ type: "integer" }),
  );
}

export function flag() {
  return z.preprocess(truth, z.boolean({ error: "true or false" }));
}

/**
 * A host id such as `msg_…`: its prefix, then letters, digits, `_` and `-` (never a path). Checked
 * by a refinement, which the JSON Schema leaves out: the ids come from earlier answers, and a
 * pattern on each of nine id parameters would cost every request about 300 bytes.
 */
export function id(prefix: "ses_" | "msg_" | "prt_") {
  const error = `an id starting with "${prefix}"`;
  const shape = new RegExp(`^${prefix}[A-Za-z0-9_-]{1,96}$`);
  return z
    .string({ error })
    .trim()
    .refine((value) => shape.test(value), { error });
}

/** Free text, trimmed; too short or too long is worded by run.ts from the bounds. */
export function text(maxLength: number) {
  return z
    .string({ error: `a string of 1 to ${maxLength} characters` })
    .trim()
    .min(1)
    .max(maxLength);
}

/** A list sent as its JSON text is read as the list; a lone string as a list of it. */
function listOf(value: unknown): unknown {
  if (typeof value !== "string") return value;
  if (value.trim().startsWith("[")) {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return [value];
}

/**
 * A list of at most `maxItems` free texts (text()); parses to the trimmed strings. The bounds are
 * checked, not put in the JSON Schema: every request carries the schema (issue 11's budget).
 */
export function textList(maxItems: number, maxLength: number) {
  const error = `a list of at most ${maxItems} strings`;
  const item = z.string({ error: `a string of 1 to ${maxLength} characters` }).trim();
  return z.preprocess(
    listOf,
    z.array(item, { error }).check((ctx) => {
      if (ctx.value.length > maxItems) ctx.issues.push({ code: "custom", message: error, input: ctx.value });
      ctx.value.forEach((value, i) => {
        if (value.length === 0) ctx.issues.push({ code: "too_small", origin: "string", minimum: 1, inclusive: true, path: [i], message: "", input: value });
        else if (value.length > maxLength)
          ctx.issues.push({ code: "too_big", origin: "string", maximum: maxLength, inclusive: true, path: [i], message: "", input: value });
      });
    }),
  );
}

export function choice<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `one of ${values.join(", ")}` });
}

/** A "|"- or ","-separated list of allowed words, e.g. `text|tool`; parses to the distinct words. */
export function wordList<const T extends string>(allowed: readonly T[]) {
  const error = `a "|"-separated list of ${allowed.join(", ")}`;
  return z.string({ error }).transform((value, ctx) => {
    const words: T[] = [];
    for (const item of value.split(/[|,]/)) {
      const word = item.trim();
      if (word === "") continue;
      if (!(allowed as readonly string[]).includes(word)) {
        ctx.issues.push({ code: "custom", message: error, input: value });
        return z.NEVER;
      }
      if (!words.includes(word as T)) words.push(word as T);
    }
    if (words.length === 0) ctx.issues.push({ code: "custom", message: error, input: value });
    return words;
  });
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

/** An ISO 8601 date or date-time; parses to epoch milliseconds. */
export function isoDate() {
  const error = "an ISO 8601 date such as 2026-05-01 or 2026-05-01T14:30:00Z";
  return z
    .string({ error })
    .trim()
    .transform((value, ctx) => {
      const time = ISO_DATE.test(value) ? Date.parse(value) : Number.NaN;
      if (Number.isNaN(time)) {
        ctx.issues.push({ code: "custom", message: error, input: value });
        return z.NEVER;
      }
      return time;
    });
}

/** `session_id`, optional in every tool: omitted, the calling session (the guidance block says so). */
export const sessionParam = id("ses_").optional();

/** `num_before` / `num_after` of the browse tools: how many earlier and later entries to add. */
export const windowParams = {
  num_before: integer(0, MAX_WINDOW_ARG).optional(),
  num_after: integer(0, MAX_WINDOW_ARG).optional(),
};
