// A store-wide watermark: whether the host wrote any history since an earlier look, and which
// sessions, from a few index lookups instead of every session's change stamp. Both generations
// write history through durable events (anomalyco/opencode packages/core/src/event/index.ts: the
// event row and the projected message/part or session_message rows in one transaction), so:
// - new rows and rows rewritten in place (a part or message streamed: same row, new data) add an
//   event row: the newest `event` row moves, and the events since name their sessions;
// - removals (a revert, a removed message or part) add an event too;
// - `opencode import` and OpenCode 2's one-shot 1.x import write rows without events: the newest
//   row of each history table moves, and the rows since name their sessions;
// - a session deleted whole takes its rows and events with it: the session count drops, and the
//   mark says only that it cannot name what changed.
// Not caught: rows rewritten in place without an event (a repeated `opencode import` of a session
// already there, an upsert keeping its row ids) and writes by anything but the host.
// Row ids are SQLite's (max + 1 for a new row): the mark keeps each table's newest row id with
// that row's own id, so rows deleted from the top and their row ids reused (the event journal's
// retention, anomalyco/opencode packages/core/src/event/retention.ts, deletes idle sessions'
// events) show as the mark's row being gone, never as "nothing new". Not PRAGMA data_version:
// it compares only within one connection, and marks travel between the build thread's and the
// plugin's. Every query is a row id lookup or a row id range; the count runs over the session
// table's smallest index, a row per session.

import type { Database } from "./sqlite.ts";

/** Rows written since a mark past which comparing every session's stamp is cheaper than reading them. */
export const MAX_ROWS_SINCE = 20_000;

/** A history table and the column naming a row's session. */
interface HistoryTable {
  table: string;
  session: string;
}

export interface WatermarkTables {
  /** Marks of another generation are not compared. */
  generation: string;
  /** The session table (its rows are counted: a deleted session). */
  sessions: string;
  /** The event table (`aggregate_id` names the session) and the history tables its events write. */
  history: readonly HistoryTable[];
}

export interface StoreWatermark {
  watermark(): Promise<string>;
  sessionsChangedSince(mark: string): Promise<string[] | undefined>;
}

/** A table's newest row: its row id and its `id` (0 and null when empty). */
type Top = [rowid: number, id: string | null];

interface Mark {
  generation: string;
  tops: Top[];
  /** How many sessions, and the newest session row id. */
  sessions: [count: number, rowid: number];
}

function parseMark(text: string, tables: WatermarkTables): Mark | undefined {
  try {
    const mark = JSON.parse(text) as Partial<Mark>;
    const fine =
      mark.generation === tables.generation &&
      Array.isArray(mark.tops) &&
      mark.tops.length === tables.history.length &&
      mark.tops.every((top) => Array.isArray(top) && typeof top[0] === "number" && (typeof top[1] === "string" || top[1] === null)) &&
      Array.isArray(mark.sessions) &&
      mark.sessions.every((n) => typeof n === "number");
    return fine ? (mark as Mark) : undefined;
  } catch {
    return undefined;
  }
}

/** The watermark's queries over `tables`, as text (the tests read their plans). */
export function watermarkSql(tables: WatermarkTables) {
  return {
    history: tables.history.map(({ table, session }) => ({
      top: `SELECT rowid AS r, id FROM ${table} WHERE rowid = (SELECT max(rowid) FROM ${table})`,
      idAt: `SELECT id FROM ${table} WHERE rowid = ?`,
      // NOT INDEXED: with DISTINCT the planner would rather scan a session index whole. Only
      // sessions that exist: other aggregates' events, rows of a session deleted since.
      since: `SELECT id FROM ${tables.sessions} WHERE id IN (SELECT ${session} FROM ${table} NOT INDEXED WHERE rowid > ?)`,
    })),
    sessionFacts: `SELECT count(*) AS n, coalesce(max(rowid), 0) AS r FROM ${tables.sessions}`,
    sessionsAfter: `SELECT count(*) AS n FROM ${tables.sessions} WHERE rowid > ?`,
  };
}

/** The watermark over `tables`; undefined when a table lacks what it reads (no `id`, no row ids). */
export function storeWatermark(db: Database, tables: WatermarkTables): StoreWatermark | undefined {
  const sql = watermarkSql(tables);
  const prepare = () => sql.history.map((table) => ({ top: db.query(table.top), idAt: db.query(table.idAt), since: db.query(table.since) }));
  let queries: ReturnType<typeof prepare>;
  try {
    queries = prepare();
  } catch {
    return undefined;
  }
  const sessionFacts = db.query(sql.sessionFacts);
  const sessionsAfter = db.query(sql.sessionsAfter);

  const tops = (): Top[] =>
    queries.map((query) => {
      const row = query.top.get() as { r: number; id: string } | null;
      return row ? [row.r, row.id] : [0, null];
    });

  return {
    async watermark() {
      const facts = sessionFacts.get() as { n: number; r: number };
      const mark: Mark = { generation: tables.generation, tops: tops(), sessions: [facts.n, facts.r] };
      return JSON.stringify(mark);
    },
    async sessionsChangedSince(text) {
      const mark = parseMark(text, tables);
      if (!mark) return undefined;
      const now = tops();
      let rows = 0;
      for (const [i, [rowid, id]] of mark.tops.entries()) {
        // The mark's newest row gone: rows since may have taken row ids at or below it.
        if (rowid > 0 && (queries[i]!.idAt.get(rowid) as { id: string } | null)?.id !== id) return undefined;
        rows += now[i]![0] - rowid;
      }
      if (rows > MAX_ROWS_SINCE) return undefined;
      const [count, sessionRow] = mark.sessions;
      const facts = sessionFacts.get() as { n: number };
      // Fewer sessions than before plus the new ones: one was deleted, and no row names it.
      if (facts.n < count + (sessionsAfter.get(sessionRow) as { n: number }).n) return undefined;
      const ids = new Set<string>();
      for (const [i, [rowid]] of mark.tops.entries()) {
        if (now[i]![0] === rowid) continue;
        for (const row of queries[i]!.since.all(rowid) as { id: string }[]) ids.add(row.id);
      }
      return [...ids];
    },
  };
}
