// The command line's view of an OpenCode 2 store: its history is session_v2/session_message only.
// The 1.x tables beside them (when the file was 1.x's first) are a copy OpenCode 2 never writes:
// they say only how many 1.x sessions never made it into session_v2 (written by 1.x after the
// one-shot import, or not imported at all), which doctor reports.

import { fileBytes } from "../file-bytes.ts";
import { tableColumns, type Database } from "../sqlite.ts";
import type { LegacyCopy, Store } from "../store-shape.ts";
import { V2_DECODE } from "./map.ts";
import { V2_SESSION_COLUMNS, v2ReaderOver } from "./sqlite-reader.ts";

/** kv key of OpenCode 2's one-shot 1.x import: {phase: "sessions", cursor} while it runs, {phase: "completed"} after. */
const MIGRATION_KEY = "migration.v1-v2";

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

export function v2StoreOver(path: string, db: Database): Store {
  // The command line reads every project; the reader's own project scope is not used here.
  const reader = v2ReaderOver(db, "");
  const sessions = db.query(`SELECT ${V2_SESSION_COLUMNS} FROM session_v2`);
  const messageSession = db.query("SELECT session_id FROM session_message WHERE id = ?");
  const version = tableColumns(db, "session_v2").has("version") ? db.query("SELECT version FROM session_v2 ORDER BY time_updated DESC LIMIT 1") : undefined;
  const count = (table: string) => (db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  const legacy = legacyCopy(db);
  return {
    path,
    generation: "opencode-2",
    reads: reader,
    decode: V2_DECODE,
    sessions: () => sessions.all(),
    session: (sessionId) => reader.storedSession(sessionId),
    sessionOfMessage(messageId) {
      return (messageSession.get(messageId) as { session_id: string } | null)?.session_id;
    },
    sessionBytes() {
      const rows = db.query("SELECT session_id, sum(length(data)) AS n FROM session_message GROUP BY session_id").all() as { session_id: string; n: number }[];
      return new Map(rows.map((row) => [row.session_id, row.n]));
    },
    writerVersion() {
      return (version?.get() as { version: string } | null | undefined)?.version || undefined;
    },
    stats() {
      const data = db.query("SELECT coalesce(sum(length(data)), 0) AS n FROM session_message").get() as { n: number };
      return { sessions: count("session_v2"), messages: count("session_message"), bytes: fileBytes(path), dataBytes: data.n };
    },
    ...(legacy ? { legacy } : {}),
    close: () => db.close(),
  };
}
