// What the hook set needs from the plugin, shared by the hooks that keep state (compaction).

import type { EngramConfig } from "../config/schema.ts";
import type { Log } from "../host/log.ts";
import type { HistorySource } from "../host/source.ts";

export interface HookDeps {
  source: HistorySource;
  config(): EngramConfig;
  /** Project root, for relative paths in chart previews. */
  directory: string;
  log: Log;
  /** Clock for expiring dead compaction state; injectable for tests. */
  now?: () => number;
}
