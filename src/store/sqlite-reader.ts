// Read-only fast path on the host's own SQLite store. About 7x faster than the SDK for a
// whole session. Used only after a check that the tables have the columns we know and that the
// file holds the session asked for; opened read-only and query-only, so it can never write.
// A whole session's parts are read through the part table's session index in row order, as many
// rows a query as make about QUERY_BYTES (by message id, a few messages a query, the same reads
// took 2.5 times as long with the store's pages out of memory: docs/search-notes.md); bun:sqlite
// is synchronous, so each query is one block, and the read pauses between queries and the parse
// between messages when a slice is spent: a 30 MB session never holds the event loop for its length.
// Change detection costs two index lookups: the host's per-session event sequence and the
// session's highest part row id; what changed is then read from the events written since. The
// store-wide watermark (watermark.ts) reads the newest rows of event, message and part.

import { type Database, missingColumns, nextRowCount } from "./sqlite.ts";
import { parseObject } from "./json-fields.ts";
import { checkpoint, type HistoryReader, type RawMessage, type ReadOptions, type SessionStamp } from "./reader.ts";
import { storeWatermark, type StoreWatermark } from "./watermark.ts";

const REQUIRED_COLUMNS: Record<string, string[]> = {
  message: ["id", "session_id", "time_created", "time_updated", "data"],
  part: ["id", "message_id", "session_id", "time_created", "time_updated", "data"],
  session: ["id", "parent_id", "title", "directory", "time_created", "time_updated"],
  event_sequence: ["aggregate_id", "seq"],
  event: ["aggregate_id", "seq", "type", "data"],
};

/** Messages per page of a whole-session read. */
const PAGE = 500;
/** Part rows of a whole-session read's first parts query. */
const FIRST_PART_ROWS = 32;

/** Whether `table` has an index whose first column is `column`. */
function indexedBy(db: Database, table: string, column: string): boolean {
  const indexes = db.query(`PRAGMA index_list(${table})`).all() as { name: string }[];
  return indexes.some(({ name }) =>
    (db.query(`PRAGMA index_info("${name.replaceAll('"', '""')}")`).all() as { seqno: number; name: string }[]).some((c) => c.seqno === 0 && c.name === column),
  );
}

/**
 * Missing tables or columns of the 1.x history, as text; empty when the schema is one we know.
 * Reads by session and change stamps look parts up by session: without that index (the host's
 * first migration makes it), each would scan the whole table.
 */
export function schemaProblems(db: Database): string[] {
  const problems = missingColumns(db, REQUIRED_COLUMNS);
  if (problems.length === 0 && !indexedBy(db, "part", "session_id")) problems.push("no index on part.session_id");
  return problems;
}

/** The session columns read (all in REQUIRED_COLUMNS). */
const SESSION_COLUMNS = "id, parent_id, title, directory, time_created, time_updated";

interface SessionRow {
  id: string;
  parent_id: string | null;
  title: string | null;
  directory: string | null;
  time_created: number | null;
  time_updated: number | null;
}

/** A session row in the host's JSON shape, so map.ts reads it exactly like an SDK answer. */
function sessionJson(row: SessionRow): Record<string, unknown> {
  const json: Record<string, unknown> = { id: row.id, title: row.title ?? "", time: { created: row.time_created, updated: row.time_updated } };
  if (row.parent_id) json.parentID = row.parent_id;
  if (row.directory) json.directory = row.directory;
  return json;
}

interface Row {
  id: string;
  message_id?: string;
  time_created?: number;
  data: string;
}

/** A part row of a whole-session read, with its row id (where the next query starts). */
interface PartRow extends Row {
  r: number;
}

const byId = (a: Row, b: Row) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Adds a part row to its message's list (a row naming no message is left out). */
function groupPart(grouped: Map<string, Row[]>, row: Row): void {
  if (!row.message_id) return;
  const list = grouped.get(row.message_id);
  if (list) list.push(row);
  else grouped.set(row.message_id, [row]);
}

/** Part rows by message id, in row order. */
function byMessage(parts: Row[]): Map<string, Row[]> {
  const grouped = new Map<string, Row[]>();
  for (const row of parts) groupPart(grouped, row);
  return grouped;
}

/** One message's rows back into the `{info, parts}` shape the SDK returns (the table's `data` lacks the ids). */
function assemble(sessionId: string, message: Row, parts: readonly Row[]): RawMessage | undefined {
  const info = parseObject(message.data);
  if (!info) return undefined;
  // The parsed objects are ours alone: the ids go straight in, no copy.
  info.id = message.id;
  info.sessionID = sessionId;
  const out: unknown[] = [];
  for (const row of parts) {
    const data = parseObject(row.data);
    if (!data) continue;
    data.id = row.id;
    data.sessionID = sessionId;
    data.messageID = message.id;
    out.push(data);
  }
  return { info, parts: out };
}

function assembleAll(sessionId: string, messages: Row[], parts: Row[]): RawMessage[] {
  const grouped = byMessage(parts);
  const out: RawMessage[] = [];
  for (const row of messages) {
    const message = assemble(sessionId, row, grouped.get(row.id) ?? []);
    if (message) out.push(message);
  }
  return out;
}

/** OpenCode 1.x's history read from its SQLite store; a store read alone lists every project's sessions. */
export interface SqliteReader extends HistoryReader {
  /** The store file (a projection of it is keyed by it). */
  readonly path?: string;
  /** True when this database holds the session. */
  holds(sessionId: string): boolean;
  stamp(sessionId: string): Promise<SessionStamp>;
  stamps(sessionIds: readonly string[]): Promise<Map<string, SessionStamp>>;
  changedSince(sessionId: string, since: SessionStamp): Promise<string[] | undefined>;
  watermark?: StoreWatermark["watermark"];
  sessionsChangedSince?: StoreWatermark["sessionsChangedSince"];
  /** Every session of every project, in the host's JSON shape. */
  everySession(): Promise<unknown[]>;
  /** The session in the host's JSON shape as the store keeps it (no `agent`), or undefined when it holds none. */
  sessionInfo(sessionId: string): Record<string, unknown> | undefined;
  close(): Promise<void>;
}

export function readerOver(db: Database, path?: string): SqliteReader {
  const firstMessages = db.query("SELECT id, time_created, data FROM message WHERE session_id = ?1 ORDER BY time_created, id LIMIT ?2");
  const nextMessages = db.query(
    "SELECT id, time_created, data FROM message WHERE session_id = ?1 AND (time_created, id) > (?2, ?3) ORDER BY time_created, id LIMIT ?4",
  );
  const newestMessages = db.query("SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created DESC, id DESC LIMIT ?");
  const oneMessage = db.query("SELECT id, data FROM message WHERE session_id = ? AND id = ?");
  const partsOf = db.query("SELECT id, message_id, data FROM part WHERE message_id = ? ORDER BY id");
  const sessionParts = db.query("SELECT rowid AS r, id, message_id, data FROM part WHERE session_id = ?1 AND rowid > ?2 ORDER BY rowid LIMIT ?3");
  const eventSeq = db.query("SELECT seq FROM event_sequence WHERE aggregate_id = ?");
  const lastPartRow = db.query("SELECT coalesce(max(rowid), 0) AS r FROM part WHERE session_id = ?");
  // The same two lookups for many sessions in one statement: called per session from JS, they cost
  // a many-session search on a big store more than its index lookups (docs/search-notes.md).
  const manyStamps = db.query(
    "SELECT s.id AS id, coalesce((SELECT seq FROM event_sequence WHERE aggregate_id = s.id), -1) AS seq, (SELECT coalesce(max(rowid), 0) FROM part WHERE session_id = s.id) AS r FROM session s WHERE s.id IN (SELECT value FROM json_each(?1))",
  );
  // Message events carry the message as `info`, part events the part; removals name `messageID`.
  const eventsSince = db.query(
    "SELECT seq, coalesce(json_extract(data, '$.info.id'), json_extract(data, '$.part.messageID'), json_extract(data, '$.messageID')) AS id, type FROM event WHERE aggregate_id = ?1 AND seq > ?2",
  );
  const partRowsSince = db.query("SELECT DISTINCT message_id AS id FROM part WHERE session_id = ?1 AND rowid > ?2");
  const session = db.query("SELECT 1 FROM session WHERE id = ?");
  const sessions = db.query(`SELECT ${SESSION_COLUMNS} FROM session`);
  const sessionById = db.query(`SELECT ${SESSION_COLUMNS} FROM session WHERE id = ?`);
  const every = async () => (sessions.all() as SessionRow[]).map(sessionJson);
  const sessionInfo = (sessionId: string) => {
    const row = sessionById.get(sessionId) as SessionRow | null;
    return row ? sessionJson(row) : undefined;
  };
  const marks = storeWatermark(db, {
    generation: "opencode-1",
    sessions: "session",
    history: [
      { table: "event", session: "aggregate_id" },
      { table: "message", session: "session_id" },
      { table: "part", session: "session_id" },
    ],
  });
  return {
    path,
    ...marks,
    async readAll(sessionId, options: ReadOptions = {}) {
      // Messages first: a part of a message written after them is not read.
      // A page at a time, the event loop's turn between: 20,000 message rows read at once held
      // the host's thread 32 ms, and grouping 25,000 part rows after the last page 19 ms.
      const messages: Row[] = [];
      for (let page = firstMessages.all(sessionId, PAGE) as Row[]; ; ) {
        for (const row of page) messages.push(row);
        const last = page[page.length - 1];
        if (page.length < PAGE || !last) break;
        const due = checkpoint(options);
        if (due) await due;
        page = nextMessages.all(sessionId, last.time_created, last.id, PAGE) as Row[];
      }
      const parts = new Map<string, Row[]>();
      for (let after = 0, limit = FIRST_PART_ROWS; ; ) {
        const rows = sessionParts.all(sessionId, after, limit) as PartRow[];
        let bytes = 0;
        for (const row of rows) {
          bytes += row.data.length;
          groupPart(parts, row);
        }
        const last = rows[rows.length - 1];
        if (rows.length < limit || !last) break;
        after = last.r;
        limit = nextRowCount(rows.length, bytes);
        const due = checkpoint(options);
        if (due) await due;
      }
      const out: RawMessage[] = [];
      for (const row of messages) {
        // In id order, as a message's parts are read one by one (readOne); row order nearly is.
        const own = parts.get(row.id)?.sort(byId) ?? [];
        parts.delete(row.id);
        const message = assemble(sessionId, row, own);
        if (message) out.push(message);
        const due = checkpoint(options);
        if (due) await due;
      }
      return out;
    },
    async readNewest(sessionId, count) {
      const messages = (newestMessages.all(sessionId, count) as Row[]).reverse();
      return assembleAll(
        sessionId,
        messages,
        messages.flatMap((row) => partsOf.all(row.id) as Row[]),
      );
    },
    async readOne(sessionId, messageId) {
      const row = oneMessage.get(sessionId, messageId) as Row | null;
      return row ? assemble(sessionId, row, partsOf.all(messageId) as Row[]) : undefined;
    },
    holds(sessionId) {
      return session.get(sessionId) !== null;
    },
    async stamp(sessionId) {
      const seq = (eventSeq.get(sessionId) as { seq: number } | null)?.seq ?? -1;
      return { seq, rows: (lastPartRow.get(sessionId) as { r: number }).r };
    },
    async stamps(sessionIds) {
      const rows = manyStamps.all(JSON.stringify(sessionIds)) as { id: string; seq: number; r: number }[];
      return new Map(rows.map((row) => [row.id, { seq: row.seq, rows: row.r }]));
    },
    async changedSince(sessionId, since) {
      const events = eventsSince.all(sessionId, since.seq) as { seq: number; id: string | null; type: string }[];
      let last = since.seq;
      const ids = new Set<string>();
      for (const event of events) {
        last = Math.max(last, event.seq);
        if (!event.type.startsWith("message.")) continue; // session info, status, …
        // A message or part event we cannot place: only a full read is sure to see it.
        if (event.id === null) return undefined;
        ids.add(event.id);
      }
      // Sequence numbers are contiguous per session: a gap means events were pruned.
      if (events.length !== last - since.seq) return undefined;
      for (const row of partRowsSince.all(sessionId, since.rows) as { id: string }[]) ids.add(row.id);
      return [...ids];
    },
    everySession: every,
    // A store read alone has no project of its own: a caller wanting one scopes the listing.
    listSessions: every,
    sessionInfo,
    getSession: async (sessionId) => sessionInfo(sessionId),
    storePath: async () => path,
    async close() {
      db.close();
    },
  };
}
