// What both OpenCode generations share, built over one history reader: the config of the moment,
// the cached history source, the search service and the six tool definitions. Each host's entry
// (plugin.ts for 1.x, setup.ts for 2.x) builds its reader, calls this, and registers the result
// the way its host takes it.

import type { ToolDefinition } from "@opencode-ai/plugin";
import { globalConfigDir, watchedConfig } from "../config/load.ts";
import { type EngramConfig, MESSAGE_CACHE_DEFAULTS } from "../config/schema.ts";
import { toolVisibility, type ToolVisibility } from "../history/tool-visibility.ts";
import { CachedHistorySource } from "../store/cached-source.ts";
import type { Log } from "../util/log.ts";
import { V1_DECODE } from "../store/map.ts";
import { readerFeed, type Projection, ThreadedProjection } from "../projection/index.ts";
import type { HistoryReader, HostDecode, RawMessage } from "../store/reader.ts";
import type { StoreGeneration } from "../store/store-generation.ts";
import { pauseIfDue } from "../util/scheduler.ts";
import { createSearchService, type SearchService } from "../search/api.ts";
import { ViewCache } from "../history/view-cache.ts";
import type { ToolDeps } from "./deps.ts";
import { createHistoryTools } from "./history-tools.ts";

export interface Engram<Raw> {
  config(): EngramConfig;
  source: CachedHistorySource<Raw>;
  search: SearchService;
  /** The store's projection (many-session searches); its passes start on a build thread when the host first names a session. */
  projection: Projection;
  /** The six history tools by name, as @opencode-ai/plugin definitions (zod arguments, string results). */
  tools: Record<string, ToolDefinition>;
}

/** The config of the moment, re-read when its files change; built first, since it chooses the reader. */
export function engramConfig(directory: string, log: Log): () => EngramConfig {
  return watchedConfig([globalConfigDir(), directory], (message) => log("warn", message));
}

export function createEngram<Raw = RawMessage>(options: {
  directory: string;
  config: () => EngramConfig;
  reader: HistoryReader<Raw>;
  decode?: HostDecode<Raw>;
  /** Which generation's tables the reader reads (default OpenCode 1.x, as the decoder). */
  generation?: StoreGeneration;
  log: Log;
}): Engram<Raw> {
  const { config, directory } = options;
  let visibilityFor: { input: readonly string[]; output: readonly string[]; compiled: ToolVisibility } | undefined;
  const visibility = () => {
    const current = config();
    if (visibilityFor?.input !== current.show_tool_input || visibilityFor.output !== current.show_tool_output) {
      visibilityFor = {
        input: current.show_tool_input,
        output: current.show_tool_output,
        compiled: toolVisibility(current.show_tool_input, current.show_tool_output),
      };
    }
    return visibilityFor.compiled;
  };
  // OpenCode 1.x's rows when the entry names no other generation's decoder.
  const decode = options.decode ?? (V1_DECODE as unknown as HostDecode<Raw>);
  const source = new CachedHistorySource<Raw>(options.reader, { ...MESSAGE_CACHE_DEFAULTS, maxBytes: config().store.cache_bytes, pause: pauseIfDue }, decode);
  const views = new ViewCache();
  const deps: ToolDeps = { config, visibility, source, views, directory };
  const projection = new ThreadedProjection({
    feed: readerFeed(options.reader, decode),
    generation: options.generation ?? "opencode-1",
    showTools: () => ({ input: config().show_tool_input, output: config().show_tool_output }),
    config,
    enabled: () => config().projection.enable,
    visibility,
    visibilityKey: () => JSON.stringify([config().show_tool_input, config().show_tool_output]),
    // Never asked: the passes run on the build thread, which paces itself (build-serve.ts); one
    // that cannot start leaves the projection unavailable, and this thread runs no passes.
    pause: () => undefined,
    log: options.log,
  });
  const search = createSearchService({ source, config, visibility, views, finder: projection });
  return { config, source, search, projection, tools: createHistoryTools(deps, search) };
}
