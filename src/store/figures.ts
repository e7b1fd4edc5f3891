// What `doctor` reports of an opened store beyond its history (counts, sizes, the writer's
// version, an OpenCode 2 store's frozen 1.x tables), and the one lookup the command line adds: the
// session holding a message. Read from the generation's tables with a read-only handle of their own.
// The 1.x tables an OpenCode 2 store holds (when the file was 1.x's first) are a copy OpenCode 2
// never writes: they say only how many 1.x sessions never made it into session_v2 (written by 1.x
// after the one-shot import, or not imported at all).

import { fileBytes, openReadOnly, tableColumns, type Database } from "./sqlite.ts";
import type { StoreGeneration } from "./store-file.ts";
import type { Store } from "./store-file.ts";

/** Each generation's session table, and the tables holding its message (and part) JSON. */
const TABLES: Record<StoreGeneration, { sessions: string; messages: string; parts?: string }> = {
  "opencode-1": { sessions: "session", messages: "message", parts: "part" },
  "opencode-2": { sessions: "session_v2", messages: "session_message" },
};

/** kv key of OpenCode 2's one-shot 1.x import: {phase: "sessions", cursor} while it runs, {phase: "completed"} after. */
const MIGRATION_KEY = "migration.v1-v2";

/** OpenCode 2 only: the 1.x tables it left in the file, frozen at its first start. */
export interface LegacyCopy {
  /** Sessions in the 1.x `session` table. */
  sessions: number;
  /** Of those, the ones absent from `session_v2`: written by 1.x after the import, or never imported. */
  notImported: number;
  /** The importer's state, kv['migration.v1-v2'].phase, when recorded. */
  migration?: string;
}

export interface StoreFigures {
  sessions: number;
  messages: number;
  /** OpenCode 1.x only: OpenCode 2 keeps a message's parts inside its row. */
  parts?: number;
  /** The database file with its write-ahead log. */
  bytes: number;
  /** Bytes of message (and part) JSON per session: what a cold search of it reads. */
  sessionBytes: Map<string, number>;
  /** The OpenCode version that last wrote a session (the session table's `version` column), if recorded. */
  writerVersion?: string;
  legacy?: LegacyCopy;
}

async function withDatabase<T>(store: Store, read: (db: Database) => T): Promise<T> {
  const db = await openReadOnly(store.path);
  if (!db) throw new Error(`${store.path}: no SQLite driver in this runtime`);
  try {
    return read(db);
  } finally {
    db.close();
  }
}

function legacyCopy(db: Database): LegacyCopy | undefined {
  const session = tableColumns(db, "session");
  if (!session.has("id") || !session.has("directory")) return undefined;
  const sessions = (db.query("SELECT count(*) AS n FROM session").get() as { n: number }).n;
  const notImported = (db.query("SELECT count(*) AS n FROM session WHERE id NOT IN (SELECT id FROM session_v2)").get() as { n: number }).n;
  const copy: LegacyCopy = { sessions, notImported };
  const kv = tableColumns(db, "kv");
  if (kv.has("key") && kv.has("value")) {
    const row = db.query("SELECT value FROM kv WHERE key = ?").get(MIGRATION_KEY) as { value: string } | null;
    try {
      const phase = row ? (JSON.parse(row.value) as { phase?: unknown }).phase : undefined;
      if (typeof phase === "string") copy.migration = phase;
    } catch {
      // an unreadable state says nothing
    }
  }
  return copy;
}

export function storeFigures(store: Store): Promise<StoreFigures> {
  const tables = TABLES[store.generation];
  return withDatabase(store, (db) => {
    const count = (table: string) => (db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    const sessionBytes = new Map<string, number>();
    for (const table of tables.parts ? [tables.messages, tables.parts] : [tables.messages]) {
      for (const row of db.query(`SELECT session_id, sum(length(data)) AS n FROM ${table} GROUP BY session_id`).all() as { session_id: string; n: number }[]) {
        sessionBytes.set(row.session_id, (sessionBytes.get(row.session_id) ?? 0) + row.n);
      }
    }
    const versioned = tableColumns(db, tables.sessions).has("version");
    const version = versioned
      ? (db.query(`SELECT version FROM ${tables.sessions} ORDER BY time_updated DESC LIMIT 1`).get() as { version: string } | null)
      : null;
    const legacy = store.generation === "opencode-2" ? legacyCopy(db) : undefined;
    return {
      sessions: count(tables.sessions),
      messages: count(tables.messages),
      ...(tables.parts ? { parts: count(tables.parts) } : {}),
      bytes: fileBytes(store.path),
      sessionBytes,
      ...(version?.version ? { writerVersion: version.version } : {}),
      ...(legacy ? { legacy } : {}),
    };
  });
}

/** The session holding a message, if the store has it. */
export function sessionOfMessage(store: Store, messageId: string): Promise<string | undefined> {
  return withDatabase(
    store,
    (db) => (db.query(`SELECT session_id FROM ${TABLES[store.generation].messages} WHERE id = ?`).get(messageId) as { session_id: string } | null)?.session_id,
  );
}
