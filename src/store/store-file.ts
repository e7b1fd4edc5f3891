// The host's SQLite store file opened read-only without a running host (the command line, the
// projection's build thread): its generation's own reader over every project, and how its rows
// decode. Bun only, like the plugin's readers; opened read-only and query-only, so it can never
// write. The store's generation (store-generation.ts) decides which tables are its history:
// OpenCode 1.x's session/message/part, or OpenCode 2's session_v2/session_message, never both.

import type { SessionInfo } from "../history/types.ts";
import { V1_DECODE } from "./map.ts";
import type { HistoryReader, HostDecode } from "./reader.ts";
import { readerOver, schemaProblems } from "./sqlite-reader.ts";
import { candidateDatabases, NO_SQLITE_DRIVER, openReadOnly, whereLooked, type Database } from "./sqlite.ts";
import { GENERATION_NAMES, storeGeneration, type StoreGeneration } from "./store-generation.ts";
import { V2_DECODE } from "./v2/map.ts";
import { v2ReaderOver, v2SchemaProblems } from "./v2/sqlite-reader.ts";

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
  return (await store.reader.everySession()).map((raw) => store.decode.session(raw)).filter((session): session is SessionInfo => session !== undefined);
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
