// Which OpenCode's history a store holds, told from its schema alone. OpenCode 2 keeps history in
// `session_v2` and `session_message` (ordered by `seq`); a 2.0.x store that began as 1.x keeps the
// 1.x tables beside them, frozen at its first start, and a fresh 2.1.2 store has none. OpenCode
// 1.18.33 already creates an empty `session_message` (with `seq`) but never a `session_v2`. The plugin's OpenCode 2 reader and the command line both ask here.

import { schemaProblems } from "./sqlite-reader.ts";
import { tableColumns, type Database } from "./sqlite.ts";

export type StoreGeneration = "opencode-1" | "opencode-2";

/** The generation names people read (doctor). */
export const GENERATION_NAMES: Record<StoreGeneration, string> = { "opencode-1": "OpenCode 1.x", "opencode-2": "OpenCode 2" };

/** The store's generation, or why it is neither (the 1.x schema's missing pieces). */
export function storeGeneration(db: Database): StoreGeneration | string {
  if (tableColumns(db, "session_v2").size > 0 && tableColumns(db, "session_message").has("seq")) return "opencode-2";
  const problems = schemaProblems(db);
  return problems.length === 0 ? "opencode-1" : `unknown schema (${problems.join(", ")})`;
}
