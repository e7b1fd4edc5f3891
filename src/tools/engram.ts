// The one place the pieces are put together, for the plugin on either OpenCode generation and for
// the command line: config → cached history source over the caller's reader → the store's
// projection → search service, and the six history tools over them. Each host's entry (plugin.ts
// for 1.x, setup.ts for 2.x) builds its reader and calls createEngram; the command line
// (cli/history.ts, doctor) calls composeEngram.

import type { ToolDefinition } from "@opencode-ai/plugin";
import { globalConfigDir, watchedConfig } from "../config/load.ts";
import { type EngramConfig, WIRING_DEFAULTS } from "../config/schema.ts";
import { toolVisibility, type ToolVisibility } from "../history/tool-visibility.ts";
import { CachedHistorySource } from "../store/cached-source.ts";
import type { Log } from "../util/log.ts";
import { V1_DECODE } from "../store/map.ts";
import { readerFeed, type Projection, ProjectionBuilder, ThreadedProjection } from "../projection/index.ts";
import type { HistoryReader, HostDecode, RawMessage } from "../store/reader.ts";
import type { StoreGeneration } from "../store/store-file.ts";
import { pauseIfDue } from "../util/scheduler.ts";
import { createSearchService, DEFAULT_TUNING, type SearchService, type SearchTuning } from "../search/api.ts";
import { ViewCache } from "../history/view-cache.ts";
import type { ToolDeps } from "./deps.ts";
import { createHistorySearchTool } from "./search.ts";
import { createHistorySessionsTool } from "./sessions.ts";
import { createBrowseMessagesTool, createBrowseTurnsTool, createPullMessageTool, createPullPartTool } from "./view-tools.ts";

/**
 * Where the pieces run. "host": inside OpenCode, beside the model's turns: reads give the event
 * loop its turns and the projection builds on a thread of its own. "command": nothing else runs:
 * no pacing, and the projection is read (or built, `reindex`) on this thread when a command asks.
 * "sample": a command's one-off search without the projection (doctor).
 */
export type EngramRuns = "host" | "command" | "sample";

export interface EngramOptions<Raw, R extends EngramRuns> {
  runs: R;
  config: () => EngramConfig;
  reader: HistoryReader<Raw>;
  /** The generation's raw shapes into the core's types (default OpenCode 1.x's). */
  decode?: HostDecode<Raw>;
  /** Which generation's tables the reader reads (default OpenCode 1.x, as the decoder). */
  generation?: StoreGeneration;
  log: Log;
  /** What searches and the projection count and rank with (default DEFAULT_TUNING; the eval tries others). */
  tuning?: SearchTuning;
}

export interface EngramParts<Raw, R extends EngramRuns> {
  config(): EngramConfig;
  visibility(): ToolVisibility;
  source: CachedHistorySource<Raw>;
  views: ViewCache;
  search: SearchService;
  /** The store's projection (many-session searches). */
  projection: R extends "host" ? Projection : R extends "command" ? ProjectionBuilder : undefined;
}

/** The config of the moment, re-read when its files change; built first, since it chooses the reader. */
export function engramConfig(directory: string, log: Log): () => EngramConfig {
  return watchedConfig([globalConfigDir(), directory], (message) => log("warn", message));
}

/** The tool visibility of the config of the moment, compiled again only when its selectors change. */
function visibilityOf(config: () => EngramConfig): () => ToolVisibility {
  let compiledFor: { input: readonly string[]; output: readonly string[]; compiled: ToolVisibility } | undefined;
  return () => {
    const { show_tool_input: input, show_tool_output: output } = config();
    if (compiledFor?.input !== input || compiledFor.output !== output) compiledFor = { input, output, compiled: toolVisibility(input, output) };
    return compiledFor.compiled;
  };
}

function projectionOf<Raw>(options: EngramOptions<Raw, EngramRuns>, decode: HostDecode<Raw>, visibility: () => ToolVisibility, tuning: SearchTuning) {
  const { config, runs } = options;
  if (runs === "sample") return undefined;
  const common = {
    feed: readerFeed(options.reader, decode),
    enabled: () => config().projection.enable,
    visibilityKey: () => JSON.stringify([config().show_tool_input, config().show_tool_output]),
    tuning,
    log: options.log,
  };
  // In a command nothing else runs: its passes (reindex) need no pause.
  if (runs === "command") return new ProjectionBuilder({ ...common, visibility, pause: () => undefined });
  const showTools = () => ({ input: config().show_tool_input, output: config().show_tool_output });
  return new ThreadedProjection({ ...common, generation: options.generation ?? "opencode-1", showTools, config });
}

/** Config → history source → projection → search service, for a host or a command (`runs`). */
export function composeEngram<Raw = RawMessage, R extends EngramRuns = EngramRuns>(options: EngramOptions<Raw, R>): EngramParts<Raw, R> {
  const { config } = options;
  const visibility = visibilityOf(config);
  // OpenCode 1.x's rows when the entry names no other generation's decoder.
  const decode = options.decode ?? (V1_DECODE as unknown as HostDecode<Raw>);
  const paced = options.runs === "host" ? { pause: pauseIfDue } : {};
  const source = new CachedHistorySource<Raw>(options.reader, { ...WIRING_DEFAULTS.messageCache, maxBytes: config().store.cache_bytes, ...paced }, decode);
  const views = new ViewCache();
  const tuning = options.tuning ?? DEFAULT_TUNING;
  const projection = projectionOf(options, decode, visibility, tuning);
  const search = createSearchService({ source, config, visibility, views, tuning, ...(projection ? { finder: projection } : {}) });
  return { config, visibility, source, views, search, projection: projection as EngramParts<Raw, R>["projection"] };
}

/** The six tools' names, sorted: what a host's tool list must hold once each. */
export const HISTORY_TOOL_NAMES = [
  "history_browse_messages",
  "history_browse_turns",
  "history_pull_message",
  "history_pull_part",
  "history_search",
  "history_sessions",
] as const;

export function createHistoryTools(deps: ToolDeps, search: SearchService): Record<string, ToolDefinition> {
  return {
    history_browse_turns: createBrowseTurnsTool(deps),
    history_browse_messages: createBrowseMessagesTool(deps),
    history_pull_message: createPullMessageTool(deps),
    history_pull_part: createPullPartTool(deps),
    history_search: createHistorySearchTool(deps, search),
    history_sessions: createHistorySessionsTool(deps, search),
  };
}

/** The plugin's pieces on either host, with the six history tools by name (@opencode-ai/plugin definitions). */
export function createEngram<Raw = RawMessage>(
  options: Omit<EngramOptions<Raw, "host">, "runs"> & { directory: string },
): EngramParts<Raw, "host"> & { tools: Record<string, ToolDefinition>; close(): Promise<void> } {
  const parts = composeEngram<Raw, "host">({ ...options, runs: "host" });
  // When the host disposes the plugin nothing may outlive it: the regex worker, the build thread, the SQLite handle.
  const close = async () => {
    parts.search.close();
    await parts.projection.close();
    await options.reader.close?.();
  };
  return { ...parts, tools: createHistoryTools({ ...parts, directory: options.directory }, parts.search), close };
}
