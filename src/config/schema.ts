// Every option the plugin reads, with its default and its valid range.
// The loader validates user values against these specs; the root opencode-engram.jsonc documents them.

export interface EngramConfig {
  browse: {
    /** Max characters of a message or turn preview. */
    preview_chars: number;
    /** Most turns one history_browse_turns call returns. */
    max_turns: number;
    /** Most messages one history_browse_messages call returns. */
    max_messages: number;
  };
  pull: {
    /** Characters of one section kept by history_pull_message before it is cut. */
    section_chars: number;
    /** Default characters of one history_pull_part page. */
    part_page_chars: number;
  };
  /** Tool selectors: exact name, `*` glob, `!name` to deny, `!` alone hides all. Added to the built-in allowlist. */
  show_tool_input: string[];
  show_tool_output: string[];
  search: {
    /** Default and maximum number of messages a search returns. */
    message_limit: number;
    max_message_limit: number;
    max_hits_per_message: number;
    max_snippets_per_hit: number;
    /** Characters of one snippet. */
    snippet_chars: number;
    /** Byte budget of all cached session indexes together (least recently used evicted). */
    cache_bytes: number;
    /** Time budget of a project-scope search before it answers with partial results. */
    project_time_budget_ms: number;
    /** Sessions searched at once in project scope. */
    project_concurrency: number;
  };
  context_charting: {
    enable: boolean;
    recent_turns: number;
    recent_messages: number;
    /** Character budget of the chart; previews shrink to fit. */
    max_chars: number;
  };
  history_guidance: {
    enable: boolean;
  };
  store: {
    /** Read the host's SQLite store directly (read-only, schema-checked) when running in Bun; the SDK stays the fallback. */
    sqlite_fast_path: boolean;
    /** Estimated bytes of session messages kept in memory between calls (least recently read evicted). */
    cache_bytes: number;
  };
  upstream_history: {
    enable: boolean;
    disable_for_agents: string[];
  };
}

export type Spec =
  | { type: "int"; min: number; max: number }
  | { type: "bool" }
  | { type: "strings" };

/** Defaults and ranges, section by section. */
export const CONFIG_SPEC = {
  browse: {
    preview_chars: [160, { type: "int", min: 20, max: 2000 }],
    max_turns: [50, { type: "int", min: 1, max: 500 }],
    max_messages: [100, { type: "int", min: 1, max: 1000 }],
  },
  pull: {
    section_chars: [2000, { type: "int", min: 200, max: 40000 }],
    part_page_chars: [20000, { type: "int", min: 1000, max: 40000 }],
  },
  show_tool_input: [[], { type: "strings" }],
  show_tool_output: [[], { type: "strings" }],
  search: {
    message_limit: [10, { type: "int", min: 1, max: 100 }],
    max_message_limit: [50, { type: "int", min: 1, max: 200 }],
    max_hits_per_message: [3, { type: "int", min: 1, max: 20 }],
    max_snippets_per_hit: [3, { type: "int", min: 1, max: 10 }],
    snippet_chars: [160, { type: "int", min: 40, max: 1000 }],
    cache_bytes: [268435456, { type: "int", min: 1048576, max: 17179869184 }],
    project_time_budget_ms: [2000, { type: "int", min: 100, max: 60000 }],
    project_concurrency: [4, { type: "int", min: 1, max: 32 }],
  },
  context_charting: {
    enable: [true, { type: "bool" }],
    recent_turns: [10, { type: "int", min: 0, max: 50 }],
    recent_messages: [5, { type: "int", min: 0, max: 50 }],
    max_chars: [6000, { type: "int", min: 1000, max: 40000 }],
  },
  history_guidance: {
    enable: [true, { type: "bool" }],
  },
  store: {
    sqlite_fast_path: [true, { type: "bool" }],
    cache_bytes: [134217728, { type: "int", min: 1048576, max: 17179869184 }],
  },
  upstream_history: {
    enable: [true, { type: "bool" }],
    disable_for_agents: [[], { type: "strings" }],
  },
} as const satisfies Record<string, unknown>;

type Entry = readonly [unknown, Spec];

function defaultsOf(spec: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(spec)) {
    out[key] = Array.isArray(value)
      ? structuredClone((value as unknown as Entry)[0])
      : defaultsOf(value as Record<string, unknown>);
  }
  return out;
}

export function defaultConfig(): EngramConfig {
  return defaultsOf(CONFIG_SPEC) as unknown as EngramConfig;
}
