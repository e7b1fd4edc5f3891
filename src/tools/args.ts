// Argument validation for tool handlers. The host passes plugin tool arguments through unchecked,
// so every value is checked here and a bad one is named with its valid range.

import { ArgumentError } from "../history/errors.ts";

export type Args = Record<string, unknown>;

/** Arguments the host passes as-is: anything, including non-objects. */
export function asArgs(raw: unknown): Args {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== "object" || Array.isArray(raw)) {
    throw new ArgumentError("arguments must be a JSON object of named parameters");
  }
  return raw as Args;
}

function present(args: Args, name: string): boolean {
  const value = args[name];
  return value !== undefined && value !== null;
}

/** Short, printable rendering of a bad value for an error message (never the whole 10 KB string). */
function shown(value: unknown): string {
  let text: string;
  try {
    text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

export interface IntRule {
  min: number;
  max: number;
  /** Values above max are clamped (and reported) instead of rejected. */
  clamp?: boolean;
}

export interface IntResult {
  value: number;
  /** Set when the requested value was clamped to the bound. */
  clampedFrom?: number;
}

function parseInt_(args: Args, name: string, rule: IntRule): IntResult {
  let value = args[name];
  // Models often send numbers as strings; accept plain decimal integers only.
  if (typeof value === "string" && /^\s*-?\d{1,16}\s*$/.test(value)) value = Number(value);
  if (typeof value !== "number" || !Number.isInteger(value)) {
    throw new ArgumentError(`${name} must be an integer from ${rule.min} to ${rule.max} (got ${shown(args[name])})`);
  }
  if (value < rule.min || (value > rule.max && !rule.clamp)) {
    throw new ArgumentError(`${name} must be an integer from ${rule.min} to ${rule.max} (got ${value})`);
  }
  if (value > rule.max) return { value: rule.max, clampedFrom: value };
  return { value };
}

export function optionalInt(args: Args, name: string, rule: IntRule & { default: number }): IntResult;
export function optionalInt(args: Args, name: string, rule: IntRule): IntResult | undefined;
export function optionalInt(args: Args, name: string, rule: IntRule & { default?: number }): IntResult | undefined {
  if (!present(args, name)) return rule.default === undefined ? undefined : { value: rule.default };
  return parseInt_(args, name, rule);
}

export function requiredInt(args: Args, name: string, rule: IntRule): IntResult {
  if (!present(args, name)) throw new ArgumentError(`${name} is required: an integer from ${rule.min} to ${rule.max}`);
  return parseInt_(args, name, rule);
}

export interface StringRule {
  maxLength: number;
  /** What a valid value looks like, for the error message. */
  hint?: string;
  /** Allow the empty string (after trimming). */
  allowEmpty?: boolean;
}

function parseString(args: Args, name: string, rule: StringRule): string {
  const value = args[name];
  const hint = rule.hint ? `: ${rule.hint}` : "";
  if (typeof value !== "string") throw new ArgumentError(`${name} must be a string${hint} (got ${shown(value)})`);
  const trimmed = value.trim();
  if (!rule.allowEmpty && trimmed === "") throw new ArgumentError(`${name} must not be empty${hint}`);
  if (trimmed.length > rule.maxLength) {
    throw new ArgumentError(`${name} is too long: at most ${rule.maxLength} characters (got ${trimmed.length})`);
  }
  return trimmed;
}

export function optionalString(args: Args, name: string, rule: StringRule): string | undefined {
  return present(args, name) ? parseString(args, name, rule) : undefined;
}

export function requiredString(args: Args, name: string, rule: StringRule): string {
  if (!present(args, name)) throw new ArgumentError(`${name} is required${rule.hint ? `: ${rule.hint}` : ""}`);
  return parseString(args, name, rule);
}

/** Ids are short ASCII tokens like `ses_…`, `msg_…`, `prt_…`. */
export function optionalId(args: Args, name: string, prefix: string): string | undefined {
  if (!present(args, name)) return undefined;
  return checkId(args, name, prefix);
}

export function requiredId(args: Args, name: string, prefix: string): string {
  if (!present(args, name)) throw new ArgumentError(`${name} is required: an id starting with "${prefix}"`);
  return checkId(args, name, prefix);
}

function checkId(args: Args, name: string, prefix: string): string {
  const value = parseString(args, name, { maxLength: 100, hint: `an id starting with "${prefix}"` });
  if (!/^[A-Za-z0-9_-]+$/.test(value)) {
    throw new ArgumentError(`${name} must be an id starting with "${prefix}" (got ${shown(value)})`);
  }
  if (!value.startsWith(prefix)) {
    throw new ArgumentError(`${name} must be an id starting with "${prefix}" (got ${shown(value)})`);
  }
  return value;
}

export function optionalBool(args: Args, name: string, fallback: boolean): boolean {
  if (!present(args, name)) return fallback;
  const value = args[name];
  if (value === true || value === "true") return true;
  if (value === false || value === "false") return false;
  throw new ArgumentError(`${name} must be true or false (got ${shown(value)})`);
}

export function optionalEnum<T extends string>(args: Args, name: string, allowed: readonly T[], fallback: T): T;
export function optionalEnum<T extends string>(args: Args, name: string, allowed: readonly T[]): T | undefined;
export function optionalEnum<T extends string>(args: Args, name: string, allowed: readonly T[], fallback?: T): T | undefined {
  if (!present(args, name)) return fallback;
  const value = args[name];
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value.trim())) {
    throw new ArgumentError(`${name} must be one of ${allowed.join(", ")} (got ${shown(value)})`);
  }
  return value.trim() as T;
}

/** A pipe- or comma-separated list of allowed words, e.g. `text|tool`; also accepts an array. */
export function optionalEnumList<T extends string>(args: Args, name: string, allowed: readonly T[], fallback: readonly T[]): T[] {
  if (!present(args, name)) return [...fallback];
  const value = args[name];
  const items = Array.isArray(value) ? value : typeof value === "string" ? value.split(/[|,]/) : undefined;
  const valid = `a "|"-separated list of ${allowed.join(", ")}`;
  if (!items) throw new ArgumentError(`${name} must be ${valid} (got ${shown(value)})`);
  const out: T[] = [];
  for (const item of items) {
    const word = typeof item === "string" ? item.trim() : item;
    if (word === "") continue;
    if (typeof word !== "string" || !(allowed as readonly string[]).includes(word)) {
      throw new ArgumentError(`${name} must be ${valid} (got ${shown(item)})`);
    }
    if (!out.includes(word as T)) out.push(word as T);
  }
  if (out.length === 0) throw new ArgumentError(`${name} must name at least one of ${allowed.join(", ")}`);
  return out;
}

/** An ISO 8601 date or date-time; returns epoch milliseconds. */
export function optionalDate(args: Args, name: string): number | undefined {
  if (!present(args, name)) return undefined;
  const value = parseString(args, name, { maxLength: 40, hint: "an ISO 8601 date such as 2026-05-01 or 2026-05-01T14:30:00Z" });
  const time = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) {
    throw new ArgumentError(`${name} must be an ISO 8601 date such as 2026-05-01 or 2026-05-01T14:30:00Z (got ${shown(value)})`);
  }
  return time;
}
