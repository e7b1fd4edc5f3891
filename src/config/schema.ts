// Every option the plugin reads, with its default and its valid range: the one declaration the
// type, the defaults, the loader's checks and the documentation test all come from. The root
// opencode-engram.jsonc and docs/config.md document it.

export interface IntOption {
  kind: "int";
  default: number;
  min: number;
  max: number;
}

export interface BoolOption {
  kind: "bool";
  default: boolean;
}

export interface StringsOption {
  kind: "strings";
  default: readonly string[];
}

export type ConfigOption = IntOption | BoolOption | StringsOption;

export interface ConfigSection {
  [key: string]: ConfigOption | ConfigSection;
}

const int = (value: number, min: number, max: number): IntOption => ({ kind: "int", default: value, min, max });
const bool = (value: boolean): BoolOption => ({ kind: "bool", default: value });
const strings = (): StringsOption => ({ kind: "strings", default: [] });

export const CONFIG_SCHEMA = {
  browse: {
    /** Max characters of a message or turn preview. */
    preview_chars: int(160, 20, 2000),
    /** Most turns one history_browse_turns call returns. */
    max_turns: int(50, 1, 500),
    /** Most messages one history_browse_messages call returns. */
    max_messages: int(100, 1, 1000),
  },
  pull: {
    /** Characters of one section kept by history_pull_message before it is cut. */
    section_chars: int(2000, 200, 40000),
    /** Default characters of one history_pull_part page. */
    part_page_chars: int(20000, 1000, 40000),
  },
  /** Tool selectors: exact name, `*` glob, `!name` to deny, `!` alone hides all. Added to the built-in allowlist. */
  show_tool_input: strings(),
  show_tool_output: strings(),
  search: {
    /** Default and maximum number of messages a search returns. */
    message_limit: int(10, 1, 100),
    max_message_limit: int(50, 1, 200),
    max_hits_per_message: int(3, 1, 20),
    max_snippets_per_hit: int(3, 1, 10),
    /** Characters of one snippet. */
    snippet_chars: int(160, 40, 1000),
    /** Byte budget of all cached session indexes together (least recently used evicted). */
    cache_bytes: int(268435456, 1048576, 17179869184),
    /** Time budget of a project-scope search before it answers with partial results. */
    project_time_budget_ms: int(2000, 100, 60000),
    /** Sessions searched at once in project scope. */
    project_concurrency: int(4, 1, 32),
  },
  context_charting: {
    enable: bool(true),
    recent_turns: int(10, 0, 50),
    recent_messages: int(5, 0, 50),
    /** Character budget of the chart; previews shrink to fit. */
    max_chars: int(6000, 1000, 40000),
  },
  history_guidance: {
    enable: bool(true),
  },
  store: {
    /** Read the host's SQLite store directly (read-only, schema-checked) when running in Bun; the SDK stays the fallback. */
    sqlite_fast_path: bool(true),
    /** Estimated bytes of session messages kept in memory between calls (least recently read evicted). */
    cache_bytes: int(134217728, 1048576, 17179869184),
  },
  projection: {
    /** Keep a projection of the whole store in the cache folder, so global, large-project and history_sessions searches read only the sessions holding the query's words. */
    enable: bool(true),
    /** Scopes with at least this many sessions ask the projection which to read (smaller ones read every session). */
    min_sessions: int(50, 2, 1000000),
  },
  upstream_history: {
    enable: bool(true),
    disable_for_agents: strings(),
  },
  permission: {
    /** On a host that cannot ask (OpenCode 2 without `ctx.permission.assert`, as 2.0.x), read other projects when no permission rule decides. */
    other_projects_without_prompt: bool(false),
  },
} satisfies ConfigSection;

/**
 * The settings that are not options, one object for the plugin on either host and for the command
 * line (tools/engram.ts puts the pieces together with them).
 */
export const WIRING_DEFAULTS = {
  /** The message cache (store/cached-source.ts). */
  messageCache: {
    /** Newest messages compared on every read, to catch writes no event announced. */
    checkSize: 20,
    /** Changed messages read again one by one before reading the whole session is cheaper. */
    maxSingleReads: 50,
  },
  /** OpenCode 1.x's SDK reads (store/sdk-reader.ts): messages per page, and how long one request may take. */
  sdkReads: { pageSize: 500, timeoutMs: 60_000 },
  /** A person waits longer than a model's tool call: a command's project and global searches finish. */
  commandSearchBudgetMs: 10 * 60_000,
} as const;

/** The value a declaration describes: a number, boolean or string list per option, a record per section. */
type ValueOf<S> = S extends IntOption
  ? number
  : S extends BoolOption
    ? boolean
    : S extends StringsOption
      ? string[]
      : { -readonly [K in keyof S]: ValueOf<S[K]> };

export type EngramConfig = ValueOf<typeof CONFIG_SCHEMA>;

export function isOption(value: ConfigOption | ConfigSection): value is ConfigOption {
  return typeof value.kind === "string";
}

/** Every option with its dotted path, in declaration order. */
export function configOptions(section: ConfigSection = CONFIG_SCHEMA, prefix = ""): [string, ConfigOption][] {
  return Object.entries(section).flatMap(([key, value]) =>
    isOption(value) ? [[`${prefix}${key}`, value] as [string, ConfigOption]] : configOptions(value, `${prefix}${key}.`),
  );
}

function defaultsOf(section: ConfigSection): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(section)) out[key] = isOption(value) ? structuredClone(value.default) : defaultsOf(value);
  return out;
}

export function defaultConfig(): EngramConfig {
  return defaultsOf(CONFIG_SCHEMA) as EngramConfig;
}
