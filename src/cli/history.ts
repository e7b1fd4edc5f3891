// What every command reads: the host's store (read-only), the project a directory belongs to, the
// plugin's config for that project, and the same cached source and search engine the plugin uses.

import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { globalConfigDir, loadConfig } from "../config/load.ts";
import { type EngramConfig, WIRING_DEFAULTS } from "../config/schema.ts";
import type { ToolVisibility } from "../history/tool-visibility.ts";
import type { HistoryMessage, SessionInfo } from "../history/types.ts";
import type { CachedHistorySource } from "../store/cached-source.ts";
import type { HistoryReader } from "../store/reader.ts";
import type { ProjectionBuilder } from "../projection/index.ts";
import { dataDir } from "../store/sqlite.ts";
import type { Log } from "../util/log.ts";
import { isStoreProblem, openStore, type Store, type StoreProblem } from "../store/store-file.ts";
import type { SearchService } from "../search/api.ts";
import { composeEngram } from "../tools/engram.ts";
import { insideProject } from "../tools/reach.ts";

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
  /** The project's sessions, and any session's messages, read from the store. */
  reader: HistoryReader<unknown>;
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
  projection: ProjectionBuilder;
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

/** The store's reader with its session listing narrowed to the sessions `inScope` picks. */
export function scopedReader(store: Store, inScope: (session: { id: string; directory?: unknown }) => boolean): HistoryReader<unknown> {
  const every = store.reader.everySession;
  return { ...store.reader, listSessions: async () => ((await every()) as { id: string; directory?: unknown }[]).filter(inScope) };
}

/**
 * The command's pieces over the store (tools/engram.ts), the config given once: with the store's
 * projection as the plugin keeps it, read or built in this thread when a command asks.
 */
export function commandEngram(store: Store, reader: HistoryReader<unknown>, config: EngramConfig, log: Log = () => {}) {
  return composeEngram({ runs: "command", config: () => config, reader, decode: store.decode, generation: store.generation, log });
}

export async function openHistory(options: { dataDir?: string; project?: string }): Promise<History | StoreProblem> {
  const store = await openStore(storeDir(options.dataDir));
  if (isStoreProblem(store)) return store;
  const root = projectRoot(options.project ?? process.cwd());
  const loaded = loadConfig([globalConfigDir(), root]);
  const config: EngramConfig = { ...loaded.config, search: { ...loaded.config.search, project_time_budget_ms: WIRING_DEFAULTS.commandSearchBudgetMs } };
  const reader = scopedReader(store, (session) => typeof session.directory === "string" && inProject({ directory: session.directory }, root));
  const { visibility, source, search, projection } = commandEngram(store, reader, config);
  const history: History = {
    store,
    reader,
    root,
    config,
    configProblems: loaded.problems,
    visibility: visibility(),
    source,
    search,
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
