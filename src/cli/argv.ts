// Command-line arguments: a command, positionals, and the flags that command declares. Anything
// else is a usage error naming the flag, so a typo never silently changes a search.

export class UsageError extends Error {
  override readonly name = "UsageError";
}

export interface FlagSpec {
  /** Flags that take a value (`--limit 5` or `--limit=5`). */
  values: readonly string[];
  /** Flags that are on or off. */
  switches: readonly string[];
}

export interface Parsed {
  positionals: string[];
  values: Map<string, string>;
  switches: Set<string>;
}

/** Flags every command accepts. */
export const COMMON: FlagSpec = { values: ["data-dir"], switches: ["json", "help", "no-color"] };

export function parseArgs(argv: readonly string[], spec: FlagSpec): Parsed {
  const values = new Set([...spec.values, ...COMMON.values]);
  const switches = new Set([...spec.switches, ...COMMON.switches]);
  const parsed: Parsed = { positionals: [], values: new Map(), switches: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      parsed.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === "-h") {
      parsed.switches.add("help");
      continue;
    }
    if (!arg.startsWith("--") || arg === "--") {
      parsed.positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (switches.has(name)) {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`);
      parsed.switches.add(name);
    } else if (values.has(name)) {
      const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
      if (value === undefined || (eq === -1 && value.startsWith("--"))) throw new UsageError(`--${name} needs a value`);
      parsed.values.set(name, value);
    } else {
      throw new UsageError(`unknown option --${name}`);
    }
  }
  return parsed;
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
