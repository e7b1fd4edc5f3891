// What every command reads: the host's store (read-only), the project a directory belongs to, the
// plugin's config for that project, and the same cached source and search engine the plugin uses.

import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { globalConfigDir, loadConfig } from "../config/load.ts";
import { type EngramConfig, MESSAGE_CACHE_DEFAULTS } from "../config/schema.ts";
import { toolVisibility, type ToolVisibility } from "../history/tool-visibility.ts";
import type { HistoryMessage, SessionInfo } from "../history/types.ts";
import { CachedHistorySource } from "../store/cached-source.ts";
import type { Log } from "../util/log.ts";
import { storeFeed, StoreProjection } from "../projection/index.ts";
import { dataDir } from "../store/sqlite.ts";
import { isStoreProblem, openStore, storeReader, type Store, type StoreProblem } from "../store/store.ts";
import { createSearchService, type SearchService } from "../search/api.ts";
import { insideProject } from "../tools/reach.ts";

/** A person waits longer than a model's tool call: project and global searches finish. */
const CLI_SEARCH_BUDGET_MS = 10 * 60_000;

/** The git worktree holding `directory` (nearest `.git` above it), or the directory itself. */
export function projectRoot(directory: string): string {
  const start = resolve(directory);
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return start;
  }
}

export interface History {
  store: Store;
  /** The project's root: its sessions are those whose directory is here or below. */
  root: string;
  config: EngramConfig;
  /** Config problems, for one warning. */
  configProblems: string[];
  visibility: ToolVisibility;
  source: CachedHistorySource<unknown>;
  search: SearchService;
  /**
   * The store's projection as the plugin built it, for global and large-project searches; unused
   * until a command calls its useExisting (the CLI never builds it: `reindex` does).
   */
  projection: StoreProjection;
  /** Called with (sessions read, sessions to read) as searches load sessions. */
  onLoad?: (loaded: number) => void;
  close(): void;
}

export function storeDir(dataDirFlag: string | undefined): string {
  return dataDirFlag !== undefined ? resolve(dataDirFlag) : dataDir();
}

export function inProject(session: Pick<SessionInfo, "directory">, root: string): boolean {
  return session.directory !== undefined && insideProject(session.directory, { sessionID: "", directory: root, worktree: root });
}

/** The store's projection as the plugin keeps it (every session of the store, the config's tool visibility), with no pacing: nothing else runs in a command. */
export function storeProjection(store: Store, config: EngramConfig, log: Log): StoreProjection {
  const visibility = toolVisibility(config.show_tool_input, config.show_tool_output);
  return new StoreProjection({
    feed: storeFeed(store),
    enabled: () => config.projection.enable,
    visibility: () => visibility,
    visibilityKey: () => JSON.stringify([config.show_tool_input, config.show_tool_output]),
    pause: () => undefined,
    log,
  });
}

export async function openHistory(options: { dataDir?: string; project?: string }): Promise<History | StoreProblem> {
  const store = await openStore(storeDir(options.dataDir));
  if (isStoreProblem(store)) return store;
  const root = projectRoot(options.project ?? process.cwd());
  const loaded = loadConfig([globalConfigDir(), root]);
  const config: EngramConfig = { ...loaded.config, search: { ...loaded.config.search, project_time_budget_ms: CLI_SEARCH_BUDGET_MS } };
  const visibility = toolVisibility(config.show_tool_input, config.show_tool_output);
  const reader = storeReader(store, (session) => typeof session.directory === "string" && inProject({ directory: session.directory }, root));
  const source = new CachedHistorySource(reader, { ...MESSAGE_CACHE_DEFAULTS, maxBytes: config.store.cache_bytes }, store.decode);
  const projection = storeProjection(store, config, () => {});
  const history: History = {
    store,
    root,
    config,
    configProblems: loaded.problems,
    visibility,
    source,
    search: createSearchService({ source, config: () => config, visibility: () => visibility, finder: projection }),
    projection,
    close: () => {
      projection.close();
      store.close();
    },
  };
  // Count session loads for the progress line.
  let loads = 0;
  const load = source.loadMessages.bind(source);
  source.loadMessages = (sessionId: string): Promise<HistoryMessage[]> => {
    history.onLoad?.(++loads);
    return load(sessionId);
  };
  return history;
}
