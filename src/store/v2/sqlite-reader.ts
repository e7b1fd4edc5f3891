// OpenCode 2's history read from its SQLite store (Bun's or Node's driver): a plugin's context
// there cannot page a session's messages (2.1.2 lists sessions, not their messages), and the store
// holds every session and its parent too, so it is the one source. Opened read-only and query-only,
// used only when the schema is OpenCode 2's with the columns read here, and the file holds the probe session.
// A message is one `session_message` row, read in `seq` order (the host's own order: its ids need
// not follow it). Whole-session reads fetch as many rows per query as make about QUERY_BYTES and
// parse them between pauses, so a long session never holds the event loop for its length.
// Change detection: the session's event sequence (every write the host makes is a durable event
// that advances it) and its highest row `seq`, two index lookups; when either moved, one scan of
// the session's row times and a count tell new rows, rows rewritten in place (a streaming
// assistant message) and removals (a revert). The store-wide watermark (../watermark.ts) reads the
// newest rows of event and session_message; a store without the event table has none.

import { parseObject } from "../json-fields.ts";
import { checkpoint, type HistoryReader, type ReadOptions, type SessionStamp } from "../reader.ts";
import { missingColumns, nextRowCount, tableColumns, type Database } from "../sqlite.ts";
import { BoundedMap } from "../../util/bounded-map.ts";
import { storeWatermark, type StoreWatermark } from "../watermark.ts";
import type { V2MessageRow, V2SessionRow } from "./map.ts";

/** The columns read here; later migrations may add others. */
const REQUIRED_COLUMNS: Record<string, string[]> = {
  session_v2: ["id", "project_id", "parent_id", "title", "directory", "agent", "time_created", "time_updated"],
  session_message: ["id", "session_id", "type", "seq", "time_created", "time_updated", "data"],
};

/** The session_v2 columns a V2SessionRow holds. */
const V2_SESSION_COLUMNS = "id, project_id, parent_id, title, directory, agent, time_created, time_updated";
const MESSAGE_COLUMNS = "id, type, seq, time_created, time_updated, data";
/** Sessions whose last stamp is kept; a session past it only pays one scan of its row times again. */
const MAX_STAMPS = 2000;

/** Missing tables or columns of OpenCode 2's history, as text; empty when the schema is one we read. */
export function v2SchemaProblems(db: Database): string[] {
  return missingColumns(db, REQUIRED_COLUMNS);
}

/** A `session_message` row as SQLite returns the columns read here. */
export interface SessionMessageRow {
  id: string;
  type: string;
  seq: number;
  time_created: number;
  time_updated: number;
  data: string;
}

/** The row with its `data` parsed, as the mapper takes it. */
export function messageRow(row: SessionMessageRow): V2MessageRow {
  return { id: row.id, type: row.type, seq: row.seq, timeCreated: row.time_created, timeUpdated: row.time_updated, data: parseObject(row.data) };
}

export interface V2Reader extends HistoryReader<V2MessageRow> {
  stamp(sessionId: string): Promise<SessionStamp>;
  stamps(sessionIds: readonly string[]): Promise<Map<string, SessionStamp>>;
  changedSince(sessionId: string, since: SessionStamp): Promise<string[] | undefined>;
  /** Absent without the event table. */
  watermark?: StoreWatermark["watermark"];
  sessionsChangedSince?: StoreWatermark["sessionsChangedSince"];
  /** Every session of every project in the store (the probe is the store's own). */
  everySession(probeSessionId?: string): Promise<V2SessionRow[]>;
  /** The sessions of the project it was opened for, subagent sessions included. */
  listSessions(): Promise<V2SessionRow[]>;
  getSession(sessionId: string): Promise<V2SessionRow | undefined>;
  storedSession(sessionId: string): Promise<V2SessionRow | undefined>;
  /** The project whose sessions listSessions gives. */
  readonly projectId: string;
  close(): Promise<void>;
}

/** A reader over an open OpenCode 2 store; `projectId` scopes listSessions. */
export function v2ReaderOver(db: Database, projectId: string, path?: string): V2Reader {
  const firstRows = db.query(`SELECT ${MESSAGE_COLUMNS} FROM session_message WHERE session_id = ?1 ORDER BY seq LIMIT ?2`);
  const nextRows = db.query(`SELECT ${MESSAGE_COLUMNS} FROM session_message WHERE session_id = ?1 AND seq > ?2 ORDER BY seq LIMIT ?3`);
  const newestRows = db.query(`SELECT ${MESSAGE_COLUMNS} FROM session_message WHERE session_id = ?1 ORDER BY seq DESC LIMIT ?2`);
  const oneRow = db.query(`SELECT ${MESSAGE_COLUMNS} FROM session_message WHERE session_id = ?1 AND id = ?2`);
  const hasEventSequence = tableColumns(db, "event_sequence").has("seq");
  const eventSeq = hasEventSequence ? db.query("SELECT seq FROM event_sequence WHERE aggregate_id = ?") : undefined;
  const lastSeq = db.query("SELECT coalesce(max(seq), -1) AS s FROM session_message WHERE session_id = ?");
  // The same lookups for many sessions in one statement (sqlite-reader.ts of 1.x says why).
  const manySeqs = db.query(
    `SELECT s.id AS id, ${hasEventSequence ? "coalesce((SELECT seq FROM event_sequence WHERE aggregate_id = s.id), -1)" : "-1"} AS seq, (SELECT coalesce(max(seq), -1) FROM session_message WHERE session_id = s.id) AS s FROM session_v2 s WHERE s.id IN (SELECT value FROM json_each(?1))`,
  );
  const rowFacts = db.query("SELECT count(*) AS n, coalesce(max(time_updated), 0) AS u FROM session_message WHERE session_id = ?");
  const changedRows = db.query("SELECT id FROM session_message WHERE session_id = ?1 AND (seq > ?2 OR time_updated >= ?3)");
  const newRows = db.query("SELECT count(*) AS n FROM session_message WHERE session_id = ?1 AND seq > ?2");
  const sessionsOf = db.query(`SELECT ${V2_SESSION_COLUMNS} FROM session_v2 WHERE project_id = ?`);
  const allSessions = db.query(`SELECT ${V2_SESSION_COLUMNS} FROM session_v2`);
  const sessionById = db.query(`SELECT ${V2_SESSION_COLUMNS} FROM session_v2 WHERE id = ?`);
  /** The last stamp per session, kept while neither its event sequence nor its newest row moved; bounded like the cache's per-session state. */
  const stamps = new BoundedMap<string, SessionStamp>(MAX_STAMPS);

  /** The stamp from the session's event sequence and newest row: the one kept while neither moved, else taken anew. */
  function stampAt(sessionId: string, seq: number, rows: number): SessionStamp {
    const known = stamps.get(sessionId);
    // Without an event sequence a row rewritten in place moves nothing cheap: take the times every time.
    if (known && seq >= 0 && known.seq === seq && known.rows === rows) return known;
    const facts = rowFacts.get(sessionId) as { n: number; u: number };
    const stamp = { seq, rows, count: facts.n, updated: facts.u };
    stamps.set(sessionId, stamp);
    return stamp;
  }

  const session = async (sessionId: string) => (sessionById.get(sessionId) as V2SessionRow | null) ?? undefined;
  const marks = storeWatermark(db, {
    generation: "opencode-2",
    sessions: "session_v2",
    history: [
      { table: "event", session: "aggregate_id" },
      { table: "session_message", session: "session_id" },
    ],
  });
  return {
    projectId,
    ...marks,
    async readAll(sessionId, options: ReadOptions = {}) {
      const out: V2MessageRow[] = [];
      let chunk = 8;
      let rows = firstRows.all(sessionId, chunk) as SessionMessageRow[];
      while (rows.length > 0) {
        let bytes = 0;
        for (const row of rows) {
          bytes += row.data.length;
          out.push(messageRow(row));
          const due = checkpoint(options);
          if (due) await due;
        }
        if (rows.length < chunk) break;
        chunk = nextRowCount(rows.length, bytes);
        rows = nextRows.all(sessionId, rows[rows.length - 1]!.seq, chunk) as SessionMessageRow[];
      }
      return out;
    },
    async readNewest(sessionId, count) {
      return (newestRows.all(sessionId, count) as SessionMessageRow[]).reverse().map(messageRow);
    },
    async readOne(sessionId, messageId) {
      const row = oneRow.get(sessionId, messageId) as SessionMessageRow | null;
      return row ? messageRow(row) : undefined;
    },
    async stamp(sessionId) {
      const seq = (eventSeq?.get(sessionId) as { seq: number } | null | undefined)?.seq ?? -1;
      return stampAt(sessionId, seq, (lastSeq.get(sessionId) as { s: number }).s);
    },
    async stamps(sessionIds) {
      const rows = manySeqs.all(JSON.stringify(sessionIds)) as { id: string; seq: number; s: number }[];
      return new Map(rows.map((row) => [row.id, stampAt(row.id, row.seq, row.s)]));
    },
    async changedSince(sessionId, since) {
      if (since.count === undefined || since.updated === undefined) return undefined;
      const count = (rowFacts.get(sessionId) as { n: number }).n;
      const added = (newRows.get(sessionId, since.rows) as { n: number }).n;
      // Fewer rows than before plus the new ones: some were removed, and only a full read says which.
      if (count < since.count + added) return undefined;
      return (changedRows.all(sessionId, since.rows, since.updated) as { id: string }[]).map((row) => row.id);
    },
    listSessions: async () => sessionsOf.all(projectId) as V2SessionRow[],
    everySession: async () => allSessions.all() as V2SessionRow[],
    getSession: session,
    storedSession: session,
    storePath: async () => path,
    async close() {
      db.close();
    },
  };
}
