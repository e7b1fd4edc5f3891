// What the hooks of both hosts need from the plugin, and the guard each one runs in.

import type { EngramConfig } from "../config/schema.ts";
import type { Log } from "../util/log.ts";
import type { HistorySource } from "../history/source.ts";

export interface HookDeps {
  source: HistorySource;
  config(): EngramConfig;
  /** Project root, for relative paths in chart previews. */
  directory: string;
  log: Log;
  /** Clock for expiring dead compaction state; injectable for tests. */
  now?: () => number;
}

/**
 * Runs one hook's work so it never throws into the host: a hook that throws would break the user's
 * request, and each hook has a safe "do nothing" fallback. The failure is logged instead.
 */
export async function guardHook(log: Log, hook: string, run: () => unknown): Promise<void> {
  try {
    await run();
  } catch (error) {
    log("error", `engram: ${hook} hook failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
