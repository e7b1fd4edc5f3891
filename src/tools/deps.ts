// What every tool handler is given: the config of the moment, the host source, the project root.

import type { EngramConfig } from "../config/schema.ts";
import type { ToolVisibility } from "../history/tool-visibility.ts";
import type { HistorySource } from "../history/source.ts";
import type { ViewCache } from "../history/view-cache.ts";

export interface ToolDeps {
  /** Current config (reloaded when its files change). */
  config(): EngramConfig;
  /** Tool visibility compiled from the current config. */
  visibility(): ToolVisibility;
  source: HistorySource;
  /** Session views kept while their sessions are unchanged (shared with the search service). */
  views: ViewCache;
  /** Project root, for making paths relative. */
  directory: string;
}
