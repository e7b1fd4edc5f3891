// Command-line arguments: a command, positionals, and the flags that command declares, parsed by
// node:util's parseArgs in strict mode. Anything else is a usage error naming the flag, so a typo
// never silently changes a search.

import { parseArgs as parseWithUtil, type ParseArgsConfig } from "node:util";

export class UsageError extends Error {
  override readonly name = "UsageError";
}

export interface FlagSpec {
  /** Flags that take a value (`--limit 5` or `--limit=5`). */
  values: readonly string[];
  /** Flags that are on or off. */
  switches: readonly string[];
  /** Flags of `values` that may be given more than once (`--alt a --alt b`), every value kept in order. */
  repeated?: readonly string[];
  /** One-letter aliases (`o` for `output` makes `-o FILE` work). */
  shorts?: Readonly<Record<string, string>>;
}

export interface Parsed {
  positionals: string[];
  values: Map<string, string>;
  /** The repeated flags' values, in the order given. */
  lists: Map<string, string[]>;
  switches: Set<string>;
}

/** Flags every command accepts. */
export const COMMON: FlagSpec = { values: ["data-dir"], switches: ["json", "help", "no-color"] };

export function parseArgs(argv: readonly string[], spec: FlagSpec): Parsed {
  const options: NonNullable<ParseArgsConfig["options"]> = { help: { type: "boolean", short: "h" } };
  for (const name of [...spec.values, ...COMMON.values]) options[name] = { type: "string", multiple: spec.repeated?.includes(name) === true };
  for (const [short, name] of Object.entries(spec.shorts ?? {})) if (options[name]) options[name].short = short;
  for (const name of [...spec.switches, ...COMMON.switches]) options[name] ??= { type: "boolean" };
  let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseWithUtil({ args: [...argv], options, strict: true, allowPositionals: true }));
  } catch (error) {
    throw usageError(error);
  }
  const parsed: Parsed = { positionals, values: new Map(), lists: new Map(), switches: new Set() };
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === "string") parsed.values.set(name, value);
    else if (Array.isArray(value)) parsed.lists.set(name, value.map(String));
    else if (value === true) parsed.switches.add(name);
  }
  return parsed;
}

/** parseArgs' error in our words, naming the flag; its own message when the wording is not one we know. */
function usageError(error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "string" || !code.startsWith("ERR_PARSE_ARGS_")) return error;
  const message = (error as Error).message;
  // Node and Bun quote the flag first: "Unknown option '--colour'…", "Option '--limit <value>'…";
  // Bun names a short flag inside a group without its dash.
  const quoted = /'([^'\s]+)/.exec(message)?.[1];
  const flag = quoted === undefined || quoted.startsWith("-") ? quoted : `-${quoted}`;
  if (flag === undefined) return new UsageError(message);
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return new UsageError(`unknown option ${flag}`);
  if (code !== "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") return new UsageError(message);
  if (/does not take an argument/.test(message)) return new UsageError(`${flag} takes no value`);
  return new UsageError(`${flag} needs a value (one starting with - is written ${flag}=-…)`);
}

export function intFlag(parsed: Parsed, name: string, min: number, max: number): number | undefined {
  const text = parsed.values.get(name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max} (got ${text})`);
  return value;
}

export function choiceFlag<T extends string>(parsed: Parsed, name: string, choices: readonly T[]): T | undefined {
  const text = parsed.values.get(name);
  if (text === undefined) return undefined;
  if (!(choices as readonly string[]).includes(text)) throw new UsageError(`--${name} must be one of ${choices.join(", ")} (got ${text})`);
  return text as T;
}
