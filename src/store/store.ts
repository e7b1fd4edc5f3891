// The host's SQLite store opened read-only without a running host (the command line): every
// session of every project, any session's messages, and the figures `doctor` reports. Bun only,
// like the plugin's readers; opened read-only and query-only, so it can never write. The store's
// generation (store-generation.ts) decides which tables are its history: OpenCode 1.x's
// session/message/part, or OpenCode 2's session_v2/session_message (v2/store.ts), never both.

import type { SessionInfo } from "../history/types.ts";
import { fileBytes } from "./file-bytes.ts";
import { V1_DECODE } from "./map.ts";
import type { HistoryReader } from "./reader.ts";
import type { Store } from "./store-shape.ts";
import { readerOver, schemaProblems } from "./sqlite-reader.ts";
import { candidateDatabases, NO_SQLITE_DRIVER, openReadOnly, tableColumns, whereLooked, type Database } from "./sqlite.ts";
import { GENERATION_NAMES, storeGeneration, type StoreGeneration } from "./store-generation.ts";
import { v2SchemaProblems } from "./v2/sqlite-reader.ts";
import { v2StoreOver } from "./v2/store.ts";

export type { Store } from "./store-shape.ts";

/** Why no store could be opened: no database file, a schema we do not know, or no Bun to read it. */
export interface StoreProblem {
  kind: "missing" | "schema" | "runtime" | "unreadable";
  message: string;
}

export function isStoreProblem<T extends object>(value: T | StoreProblem): value is StoreProblem {
  return "kind" in value;
}

/** The store's sessions in the core's shape. */
export function storeSessions(store: Store): SessionInfo[] {
  return store
    .sessions()
    .map((raw) => store.decode.session(raw))
    .filter((session): session is SessionInfo => session !== undefined);
}

function storeOver(path: string, db: Database): Store {
  const reader = readerOver(db);
  const messageSession = db.query("SELECT session_id FROM message WHERE id = ?");
  const count = (table: string) => (db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  const version = tableColumns(db, "session").has("version") ? db.query("SELECT version FROM session ORDER BY time_updated DESC LIMIT 1") : undefined;
  return {
    path,
    generation: "opencode-1",
    reads: reader,
    decode: V1_DECODE,
    sessions: () => reader.everySession(),
    session: async (sessionId) => reader.sessionInfo(sessionId),
    sessionOfMessage(messageId) {
      const row = messageSession.get(messageId) as { session_id: string } | null | undefined;
      return row?.session_id;
    },
    sessionBytes() {
      const bytes = new Map<string, number>();
      for (const table of ["message", "part"]) {
        for (const row of db.query(`SELECT session_id, sum(length(data)) AS n FROM ${table} GROUP BY session_id`).all() as {
          session_id: string;
          n: number;
        }[]) {
          bytes.set(row.session_id, (bytes.get(row.session_id) ?? 0) + row.n);
        }
      }
      return bytes;
    },
    writerVersion() {
      const row = version?.get() as { version: string } | null | undefined;
      return row?.version || undefined;
    },
    stats() {
      const data = db.query("SELECT (SELECT coalesce(sum(length(data)), 0) FROM message) + (SELECT coalesce(sum(length(data)), 0) FROM part) AS n").get() as {
        n: number;
      };
      return { sessions: count("session"), messages: count("message"), parts: count("part"), bytes: fileBytes(path), dataBytes: data.n };
    },
    close: () => reader.close(),
  };
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
    const problems = read === "opencode-2" ? v2SchemaProblems(db) : read === "opencode-1" ? schemaProblems(db) : [read];
    if (problems.length === 0) return read === "opencode-2" ? v2StoreOver(path, db) : storeOver(path, db);
    db.close();
    const why = read === "opencode-1" || read === "opencode-2" ? `unknown ${GENERATION_NAMES[read]} schema (${problems.join(", ")})` : read;
    return { kind: "schema", message: `${path}: ${why}` };
  } catch (error) {
    db?.close();
    return { kind: "unreadable", message: `${path}: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** A history reader over the store: `inScope` picks the sessions `listSessions` returns. */
export function storeReader(store: Store, inScope: (session: { id: string; directory?: unknown }) => boolean): HistoryReader<unknown> {
  const { reads } = store;
  const every = () => store.sessions() as { id: string; directory?: unknown }[];
  return {
    readAll: (sessionId, options) => reads.readAll(sessionId, options),
    readNewest: (sessionId, count) => reads.readNewest(sessionId, count),
    readOne: (sessionId, messageId) => reads.readOne(sessionId, messageId),
    stamp: (sessionId) => reads.stamp(sessionId),
    stamps: (sessionIds) => reads.stamps(sessionIds),
    changedSince: (sessionId, since) => reads.changedSince(sessionId, since),
    watermark: async () => reads.watermark?.(),
    sessionsChangedSince: async (mark) => reads.sessionsChangedSince?.(mark),
    storePath: async () => store.path,
    listSessions: async () => every().filter(inScope),
    everySession: async () => every(),
    // By id: a many-session search looks up each session it reads (a listing of 3,000 sessions per lookup cost 1.5 ms).
    getSession: (sessionId) => store.session(sessionId),
  };
}
