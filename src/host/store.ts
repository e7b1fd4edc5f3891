// The host's SQLite store opened read-only without a running host (the command line): every
// session of every project, any session's messages, and the figures `doctor` reports. Bun only,
// like the plugin's fast path; opened read-only and query-only, so it can never write.

import { statSync } from "node:fs";
import type { HistoryReader } from "./reader.ts";
import { candidateDatabases, openReadOnly, readerOver, schemaProblems, type Database, type SqliteReader } from "./sqlite-reader.ts";

export interface StoreStats {
  sessions: number;
  messages: number;
  parts: number;
  /** The database file with its write-ahead log. */
  bytes: number;
  /** Bytes of message and part JSON: what a cold search of everything reads. */
  dataBytes: number;
}

export interface Store {
  path: string;
  reader: SqliteReader;
  /** Every session of every project, in the host's JSON shape. */
  sessions(): unknown[];
  /** The session holding a message, if the store has it. */
  sessionOfMessage(messageId: string): string | undefined;
  /** Bytes of message and part JSON per session. */
  sessionBytes(): Map<string, number>;
  /** The OpenCode version that last wrote a session (the `session.version` column), if recorded. */
  writerVersion(): string | undefined;
  stats(): StoreStats;
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

function fileBytes(path: string): number {
  let bytes = 0;
  for (const file of [path, `${path}-wal`]) {
    try {
      bytes += statSync(file).size;
    } catch {
      // no WAL file
    }
  }
  return bytes;
}

function hasColumn(db: Database, table: string, column: string): boolean {
  return (db.query(`PRAGMA table_info(${table})`).all() as { name: string }[]).some((row) => row.name === column);
}

function storeOver(path: string, db: Database): Store {
  const reader = readerOver(db);
  const messageSession = db.query("SELECT session_id FROM message WHERE id = ?");
  const count = (table: string) => (db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  const version = hasColumn(db, "session", "version") ? db.query("SELECT version FROM session ORDER BY time_updated DESC LIMIT 1") : undefined;
  return {
    path,
    reader,
    sessions: () => reader.everySession(),
    sessionOfMessage(messageId) {
      const row = messageSession.get(messageId) as { session_id: string } | null | undefined;
      return row?.session_id;
    },
    sessionBytes() {
      const bytes = new Map<string, number>();
      for (const table of ["message", "part"]) {
        for (const row of db.query(`SELECT session_id, sum(length(data)) AS n FROM ${table} GROUP BY session_id`).all() as { session_id: string; n: number }[]) {
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
      const data = db.query("SELECT (SELECT coalesce(sum(length(data)), 0) FROM message) + (SELECT coalesce(sum(length(data)), 0) FROM part) AS n").get() as { n: number };
      return { sessions: count("session"), messages: count("message"), parts: count("part"), bytes: fileBytes(path), dataBytes: data.n };
    },
    close: () => reader.close(),
  };
}

/** Opens the first database in `dir` whose schema we know (opencode.db before channel builds'). */
export async function openStore(dir: string): Promise<Store | StoreProblem> {
  const candidates = candidateDatabases(dir);
  if (candidates.length === 0) return { kind: "missing", message: `no OpenCode database in ${dir} (looked for opencode.db)` };
  const problems: StoreProblem[] = [];
  for (const path of candidates) {
    let db: Database | undefined;
    try {
      db = await openReadOnly(path);
      if (!db) return { kind: "runtime", message: "reading the store needs Bun's SQLite driver (run through the opencode-engram launcher)" };
      const missing = schemaProblems(db);
      if (missing.length === 0) return storeOver(path, db);
      problems.push({ kind: "schema", message: `${path}: unknown schema (${missing.join(", ")})` });
      db.close();
    } catch (error) {
      db?.close();
      problems.push({ kind: "unreadable", message: `${path}: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
  return { kind: problems[0]!.kind, message: problems.map((problem) => problem.message).join("; ") };
}

/** A history reader over the store: `inScope` picks the sessions `listSessions` returns. */
export function storeReader(store: Store, inScope: (session: { id: string; directory?: unknown }) => boolean): HistoryReader {
  const { reader } = store;
  const find = (sessionId: string) => (store.sessions() as { id: string }[]).find((session) => session.id === sessionId);
  return {
    readAll: (sessionId) => reader.readAll(sessionId),
    readNewest: (sessionId, count) => reader.readNewest(sessionId, count),
    readOne: (sessionId, messageId) => reader.readOne(sessionId, messageId),
    stamp: (sessionId) => reader.stamp(sessionId),
    changedSince: (sessionId, updated) => reader.changedSince(sessionId, updated),
    listSessions: async () => (store.sessions() as { id: string; directory?: unknown }[]).filter(inScope),
    everySession: async () => store.sessions(),
    getSession: async (sessionId) => find(sessionId),
  };
}
