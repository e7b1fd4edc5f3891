// The host's SQLite store file: which one, which OpenCode generation's history it holds, and its
// generation's reader over it, opened read-only and query-only, so it can never write. The plugin
// opens it with a probe session it names (each host's reader); the command line and the
// projection's build thread open it alone, every project's sessions with how their rows decode.
// The generation is told from the schema alone: OpenCode 2 keeps history in `session_v2` and
// `session_message` (ordered by `seq`); a 2.0.x store that began as 1.x keeps the 1.x tables beside
// them, frozen at its first start, and a fresh 2.1.2 store has none. OpenCode 1.18.33 already
// creates an empty `session_message` (with `seq`) but never a `session_v2`.

import type { SessionInfo } from "../history/types.ts";
import { V1_DECODE } from "./map.ts";
import { decodeSessions, type HistoryReader, type HostDecode } from "./reader.ts";
import { readerOver, schemaProblems, type SqliteReader } from "./sqlite-reader.ts";
import { candidateDatabases, NO_SQLITE_DRIVER, openFirst, openReadOnly, tableColumns, whereLooked, type Database } from "./sqlite.ts";
import { V2_DECODE } from "./v2/map.ts";
import { type V2Reader, v2ReaderOver, v2SchemaProblems } from "./v2/sqlite-reader.ts";

export type StoreGeneration = "opencode-1" | "opencode-2";

/** The generation names people read (doctor). */
export const GENERATION_NAMES: Record<StoreGeneration, string> = { "opencode-1": "OpenCode 1.x", "opencode-2": "OpenCode 2" };

/** The store's generation, or why it is neither (the 1.x schema's missing pieces). */
export function storeGeneration(db: Database): StoreGeneration | string {
  if (tableColumns(db, "session_v2").size > 0 && tableColumns(db, "session_message").has("seq")) return "opencode-2";
  const problems = schemaProblems(db);
  return problems.length === 0 ? "opencode-1" : `unknown schema (${problems.join(", ")})`;
}

/** OpenCode 1.x: the first known-schema database holding `probeSessionId`, or why none fits. */
export function openSqliteReader(dir: string, probeSessionId: string): Promise<SqliteReader | string> {
  return openFirst(dir, (db, path) => {
    const problems = schemaProblems(db);
    if (problems.length > 0) return `unknown schema (${problems.join(", ")})`;
    if (!db.query("SELECT 1 FROM session WHERE id = ?").get(probeSessionId)) return `does not hold session ${probeSessionId}`;
    return readerOver(db, path);
  });
}

/**
 * Opens the first OpenCode 2 store in `dir` (or the one OPENCODE_DB names) that holds
 * `probeSessionId`, scoped to `projectId` or else the probe session's project; or says why none fits.
 */
export function openV2Reader(dir: string, probeSessionId: string, projectId?: string): Promise<V2Reader | string> {
  return openFirst(dir, (db, path) => {
    const why = v2StoreProblem(db);
    if (why) return why;
    const probe = db.query("SELECT project_id FROM session_v2 WHERE id = ?").get(probeSessionId) as { project_id: string } | null;
    if (!probe) return `does not hold session ${probeSessionId}`;
    return v2ReaderOver(db, projectId ?? probe.project_id, path);
  });
}

/** Why this open store cannot be read as OpenCode 2's history, or undefined when it can. */
function v2StoreProblem(db: Database): string | undefined {
  const generation = storeGeneration(db);
  if (generation !== "opencode-2") return generation === "opencode-1" ? "an OpenCode 1.x store (no session_v2 table)" : generation;
  const problems = v2SchemaProblems(db);
  return problems.length > 0 ? `unknown OpenCode 2 schema (${problems.join(", ")})` : undefined;
}

export interface Store {
  path: string;
  generation: StoreGeneration;
  /** The generation's reader: every project's sessions (listSessions gives them all too), any session's messages. */
  reader: HistoryReader<unknown> & { everySession(): Promise<unknown[]> };
  /** The generation's raw shapes into the core's types. */
  decode: HostDecode<unknown>;
  close(): void;
}

/** Why no store could be opened: no database file, a schema we do not know, or no Bun to read it. */
export interface StoreProblem {
  kind: "missing" | "schema" | "runtime" | "unreadable";
  message: string;
}

export function isStoreProblem<T extends object>(value: T | StoreProblem): value is StoreProblem {
  return "kind" in value;
}

/** The store's sessions in the core's shape. */
export async function storeSessions(store: Store): Promise<SessionInfo[]> {
  return decodeSessions(await store.reader.everySession(), store.decode);
}

function storeOver(path: string, db: Database, generation: StoreGeneration): Store {
  // OpenCode 2's reader scopes listSessions to a project: a store read alone has none, so every session.
  const reader = generation === "opencode-2" ? v2ReaderOver(db, "", path) : readerOver(db, path);
  const decode = (generation === "opencode-2" ? V2_DECODE : V1_DECODE) as HostDecode<unknown>;
  return { path, generation, reader: { ...reader, listSessions: reader.everySession }, decode, close: () => db.close() };
}

/** Opens the first database in `dir` whose schema we know (opencode.db before channel builds'). */
export async function openStore(dir: string): Promise<Store | StoreProblem> {
  const candidates = candidateDatabases(dir);
  if (candidates.length === 0) return { kind: "missing", message: `no OpenCode database in ${whereLooked(dir)} (looked for opencode.db)` };
  const problems: StoreProblem[] = [];
  for (const path of candidates) {
    const opened = await openStoreFile(path);
    if (!isStoreProblem(opened)) return opened;
    if (opened.kind === "runtime") return opened;
    problems.push(opened);
  }
  return { kind: problems[0]!.kind, message: problems.map((problem) => problem.message).join("; ") };
}

/**
 * The store file at `path`, read as `generation`'s tables when given (the projection's build
 * thread: the plugin's reader chose the file and the generation), else as its schema says.
 */
export async function openStoreFile(path: string, generation?: StoreGeneration): Promise<Store | StoreProblem> {
  let db: Database | undefined;
  try {
    db = await openReadOnly(path);
    if (!db) return { kind: "runtime", message: NO_SQLITE_DRIVER };
    const read = generation ?? storeGeneration(db);
    const known = read === "opencode-1" || read === "opencode-2";
    const problems = !known ? [read] : read === "opencode-2" ? v2SchemaProblems(db) : schemaProblems(db);
    if (known && problems.length === 0) return storeOver(path, db, read);
    db.close();
    const why = known ? `unknown ${GENERATION_NAMES[read]} schema (${problems.join(", ")})` : read;
    return { kind: "schema", message: `${path}: ${why}` };
  } catch (error) {
    db?.close();
    return { kind: "unreadable", message: `${path}: ${error instanceof Error ? error.message : String(error)}` };
  }
}
