// The projection's own SQLite file, in the user's cache folder, never the host's store: per
// session its documents' number and length, its change stamp and the number its postings carry,
// and beside it its chunk table (chunk-table-blob.ts) and preview; per segment (segments.ts), one
// row per term whose blob (postings-blob.ts) lists the sessions holding it, and in which chunks
// how often. Postings are written a segment of many sessions at a
// time, not a row per term and session: on the heavy store that table took 90 µs a posting,
// most of a build (docs/search-notes.md, "Projection build"). A session projected again gets a
// new number, so its older postings, wherever they sit, name no session and are skipped, and
// dropped when their segment is merged. Each write (a segment, a merge) is one transaction, so a
// file is never seen half written, by this process or another.
// Disposable: a file of another schema version, of another store, or built for another tool
// visibility is deleted and built again; a corrupt one is renamed aside (quarantined) and built
// again. Busy (another process writing it) is not corruption: the write is tried again on a later
// pass. Nothing here needs to survive a power loss (synchronous off): a damaged file is rebuilt.

import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join } from "node:path";
import { countTuning, type SearchTuning } from "../search/projection-contract.ts";
import type { EncodedChunkTable } from "./chunk-table-blob.ts";
import { NO_SQLITE_DRIVER, openWritable, type Database } from "../store/sqlite.ts";

/**
 * The file's schema: a version bumped whenever the tables or what they mean change, and the
 * tuning its sessions are counted with (countTuning). A file of another is rebuilt.
 */
export function projectionSchema(tuning: SearchTuning): string {
  return `9 ${countTuning(tuning)}`;
}

export interface ProjectionIdentity {
  /** The store file mirrored. */
  store: string;
  /** The store file's device and inode: a store deleted and made again at the same path is another store. */
  storeFile: string;
  /** The tool visibility the documents were cut with (show_tool_input / show_tool_output). */
  visibility: string;
  /** projectionSchema of the tuning the sessions are counted with. */
  schema: string;
}

export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME && env.XDG_CACHE_HOME.trim() !== "" ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
  return join(base, "opencode-engram");
}

/** The projection file of a store: one per store, named by a hash of its path. */
export function projectionPath(storePath: string, dir: string = cacheDir()): string {
  const hash = createHash("sha256").update(storePath).digest("hex").slice(0, 16);
  return join(dir, `projection-${hash}.sqlite`);
}

/** A file's identity on disk, device and inode ("" when it cannot be read). */
export function diskIdentity(storePath: string): string {
  try {
    const stat = statSync(storePath);
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return "";
  }
}

/** Whether an error says the file is damaged or not a database (as opposed to busy or locked). */
export function isCorruption(error: unknown): boolean {
  const text = `${(error as { code?: unknown })?.code ?? ""} ${error instanceof Error ? error.message : String(error)}`;
  return /CORRUPT|NOTADB|malformed|not a database|file is encrypted/i.test(text);
}

export interface ProjectedSession {
  id: string;
  /** The number its postings carry (never given twice in one file). */
  no: number;
  /** The session's `updated` time as listed when it was projected. */
  updated: number;
  /** The store's change stamp read before its messages were. */
  stamp: string;
  docs: number;
  length: number;
  /** Its turns (history_sessions). */
  turns: number;
}

/** What a search reads of a session only when it ranks its chunks or shows it: kept on file, not in memory. */
export interface SessionDetail extends EncodedChunkTable {
  /** The first text its user wrote, cut to what a preview can show (search/index/session-terms.ts). */
  preview: string;
}

/** A session's chunk table as written for the session's number `no`. */
interface StoredChunkTable extends EncodedChunkTable {
  no: number;
}

export interface SegmentRow {
  no: number;
  /** Postings it holds, live or not: what merges are chosen by. */
  postings: number;
}

const META_TABLE = "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID";
const TABLES = `
CREATE TABLE IF NOT EXISTS session (id TEXT PRIMARY KEY, no INTEGER NOT NULL, updated INTEGER NOT NULL, stamp TEXT NOT NULL, docs INTEGER NOT NULL, length INTEGER NOT NULL, turns INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS detail (id TEXT PRIMARY KEY, no INTEGER NOT NULL, preview TEXT NOT NULL, chunks BLOB NOT NULL, ids TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS segment (no INTEGER PRIMARY KEY, postings INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS posting (segment INTEGER NOT NULL, term TEXT NOT NULL, data BLOB NOT NULL, PRIMARY KEY (segment, term)) WITHOUT ROWID;
`;

/** SQLite's page cache for the projection file (KiB): bounded, on the heap of the SQLite library. */
const PAGE_CACHE_KIB = 8192;

/**
 * The file's rows, one statement each; the segment logic (segments.ts) and the projection above
 * them are the same over this file and the tests' in-memory one.
 */
export interface ProjectionDb {
  readonly path: string;
  /** Starts a write transaction (held across turns of the event loop until commit or rollback). */
  begin(): void;
  commit(): void;
  rollback(): void;
  /** Runs reads as of one moment (inside the write transaction if one is open). */
  snapshot<T>(read: () => T): T;
  /** True once after another connection (another host process) committed to the file. */
  changedElsewhere(): boolean;
  /**
   * The sessions projected with a number above `no` (every one from 0: numbers start at 1 and are
   * never given twice, so a session projected again comes back with a higher one), and how many
   * sessions the file holds in all (fewer than a reader knows: some were dropped).
   */
  sessionsAfter(no: number): { sessions: ProjectedSession[]; total: number };
  putSession(session: ProjectedSession): void;
  /** Dropped with the session's row. */
  dropSession(id: string): void;
  /** The session's detail, written for its number `no`. */
  putDetail(id: string, no: number, detail: SessionDetail): void;
  chunkTable(id: string): StoredChunkTable | undefined;
  preview(id: string): string | undefined;
  /** The segments published, oldest first. */
  segments(): SegmentRow[];
  putSegment(segment: SegmentRow): void;
  dropSegment(no: number): void;
  writeTerm(segment: number, term: string, data: Uint8Array): void;
  /** A term's postings in one segment. */
  termData(segment: number, term: string): Uint8Array | undefined;
  /** Up to `limit` rows of a segment after `after` (from its first when undefined), in term order. */
  termsAfter(segment: number, after: string | undefined, limit: number): { term: string; data: Uint8Array }[];
  /** Removes up to `limit` rows of a segment; true when none are left. */
  clearSome(segment: number, limit: number): boolean;
  /** A segment's terms starting with `first` whose length is in [min, max]. */
  vocabulary(segment: number, first: string, min: number, max: number): string[];
  meta(key: string): string | undefined;
  setMeta(key: string, value: string): void;
  close(): void;
}

/** The smallest string above every string that starts with `prefix`. */
function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

const blob = (value: unknown): Uint8Array => (value instanceof Uint8Array ? value : new Uint8Array(value as ArrayBuffer));

function over(db: Database, path: string): ProjectionDb {
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = OFF");
  // Never wait on another writer: a synchronous driver would hold the host's event loop.
  db.exec("PRAGMA busy_timeout = 0");
  db.exec(`PRAGMA cache_size = -${PAGE_CACHE_KIB}`);
  db.exec(TABLES);
  // At most 20 statements: Bun's Database keeps the last 20 of query() and finalizes those at
  // close; one more, pushed out, is not, and close() then leaves the file open, its WAL unwritten.
  const q = {
    version: db.query("PRAGMA data_version"),
    // The sessions above a number, then one row (id NULL) whose `no` is how many there are in all.
    sessionsAfter: db.query(
      "SELECT id, no, updated, stamp, docs, length, turns FROM session WHERE no > ?1 UNION ALL SELECT NULL, count(*), 0, '', 0, 0, 0 FROM session",
    ),
    putSession: db.query("INSERT OR REPLACE INTO session (id, no, updated, stamp, docs, length, turns) VALUES (?, ?, ?, ?, ?, ?, ?)"),
    dropSession: db.query("DELETE FROM session WHERE id = ?"),
    dropDetail: db.query("DELETE FROM detail WHERE id = ?"),
    putDetail: db.query("INSERT OR REPLACE INTO detail (id, no, preview, chunks, ids) VALUES (?, ?, ?, ?, ?)"),
    chunkTable: db.query("SELECT no, chunks, ids FROM detail WHERE id = ?"),
    preview: db.query("SELECT preview FROM detail WHERE id = ?"),
    segments: db.query("SELECT no, postings FROM segment ORDER BY no"),
    putSegment: db.query("INSERT OR REPLACE INTO segment (no, postings) VALUES (?, ?)"),
    dropSegment: db.query("DELETE FROM segment WHERE no = ?"),
    write: db.query("INSERT OR REPLACE INTO posting (segment, term, data) VALUES (?, ?, ?)"),
    term: db.query("SELECT data FROM posting WHERE segment = ? AND term = ?"),
    // From a segment's first row: after "", as no term is empty.
    after: db.query("SELECT term, data FROM posting WHERE segment = ?1 AND term > ?2 ORDER BY term LIMIT ?3"),
    clear: db.query("DELETE FROM posting WHERE segment = ?1 AND term IN (SELECT term FROM posting WHERE segment = ?1 ORDER BY term LIMIT ?2)"),
    left: db.query("SELECT 1 FROM posting WHERE segment = ? LIMIT 1"),
    // Typo lookups only (a word found nowhere): a range of the postings' own key, no table of terms to keep up.
    words: db.query("SELECT term FROM posting WHERE segment = ?1 AND term >= ?2 AND term < ?3 AND length(term) BETWEEN ?4 AND ?5"),
    meta: db.query("SELECT value FROM meta WHERE key = ?"),
    setMeta: db.query("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)"),
  };
  const version = () => (q.version.get() as { data_version: number }).data_version;
  let seen = version();
  let writing = false;
  return {
    path,
    begin() {
      db.exec("BEGIN IMMEDIATE");
      writing = true;
    },
    commit() {
      db.exec("COMMIT");
      writing = false;
    },
    rollback() {
      writing = false;
      db.exec("ROLLBACK");
    },
    snapshot(read) {
      if (writing) return read();
      db.exec("BEGIN");
      try {
        return read();
      } finally {
        db.exec("COMMIT");
      }
    },
    changedElsewhere() {
      const now = version();
      const changed = now !== seen;
      seen = now;
      return changed;
    },
    sessionsAfter(no) {
      const sessions: ProjectedSession[] = [];
      let total = 0;
      for (const row of q.sessionsAfter.all(no) as (Omit<ProjectedSession, "id"> & { id: string | null })[]) {
        if (row.id === null) total = row.no;
        else sessions.push(row as ProjectedSession);
      }
      return { sessions, total };
    },
    putSession(s) {
      q.putSession.get(s.id, s.no, s.updated, s.stamp, s.docs, s.length, s.turns);
    },
    dropSession(id) {
      q.dropSession.get(id);
      q.dropDetail.get(id);
    },
    putDetail(id, no, detail) {
      q.putDetail.get(id, no, detail.preview, detail.data, detail.ids);
    },
    chunkTable(id) {
      const row = q.chunkTable.get(id) as { no: number; chunks: unknown; ids: string } | null;
      return row ? { no: row.no, data: blob(row.chunks), ids: row.ids } : undefined;
    },
    preview: (id) => (q.preview.get(id) as { preview: string } | null)?.preview,
    segments: () => q.segments.all() as SegmentRow[],
    putSegment(segment) {
      q.putSegment.get(segment.no, segment.postings);
    },
    dropSegment(no) {
      q.dropSegment.get(no);
    },
    writeTerm(segment, term, data) {
      q.write.get(segment, term, data);
    },
    termData(segment, term) {
      const row = q.term.get(segment, term) as { data: unknown } | null;
      return row ? blob(row.data) : undefined;
    },
    termsAfter(segment, after, limit) {
      const rows = q.after.all(segment, after ?? "", limit) as { term: string; data: unknown }[];
      return rows.map((row) => ({ term: row.term, data: blob(row.data) }));
    },
    clearSome(segment, limit) {
      q.clear.get(segment, limit);
      return q.left.get(segment) === null;
    },
    vocabulary(segment, first, min, max) {
      return (q.words.all(segment, first, prefixEnd(first), min, max) as { term: string }[]).map((row) => row.term);
    },
    meta: (key) => (q.meta.get(key) as { value: string } | null)?.value,
    setMeta(key, value) {
      q.setMeta.get(key, value);
    },
    close: () => db.close(),
  };
}

/** Removes a projection file and its WAL companions. */
export function removeProjection(path: string): void {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(path + suffix, { force: true });
}

/** Renames a damaged file aside (one quarantined copy per projection is kept) so a fresh one can be built. */
export function quarantine(path: string): string {
  const dir = join(path, "..");
  const name = basename(path);
  for (const entry of readdirSync(dir)) if (entry.startsWith(`${name}.corrupt-`)) rmSync(join(dir, entry), { force: true });
  const aside = `${path}.corrupt-${Date.now()}`;
  renameSync(path, aside);
  for (const suffix of ["-wal", "-shm"]) rmSync(path + suffix, { force: true });
  return aside;
}

export type OpenedProjection = { db: ProjectionDb; rebuilt?: string } | { unavailable: string };

/**
 * The projection file for `identity`, made when absent; one of another schema version, store or
 * visibility is deleted and made again; a corrupt one quarantined and made again.
 */
export async function openProjection(path: string, identity: ProjectionIdentity): Promise<OpenedProjection> {
  mkdirSync(join(path, ".."), { recursive: true });
  let rebuilt: string | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    let db: Database | undefined;
    try {
      db = await openWritable(path);
      if (!db) return { unavailable: NO_SQLITE_DRIVER };
      // Read before any statement is prepared: an older schema's tables have other columns.
      db.exec(META_TABLE);
      const stale = staleness(db, identity);
      if (stale) {
        db.close();
        db = undefined;
        removeProjection(path);
        rebuilt = stale;
        continue;
      }
      const opened = over(db, path);
      if (opened.meta("schema") === undefined) {
        opened.setMeta("schema", identity.schema);
        opened.setMeta("store", identity.store);
        opened.setMeta("store_file", identity.storeFile);
        opened.setMeta("visibility", identity.visibility);
      }
      return rebuilt ? { db: opened, rebuilt } : { db: opened };
    } catch (error) {
      db?.close();
      if (!isCorruption(error) || attempt > 0) return { unavailable: error instanceof Error ? error.message : String(error) };
      rebuilt = `corrupt (${error instanceof Error ? error.message : String(error)}); quarantined as ${quarantine(path)}`;
    }
  }
  return { unavailable: rebuilt ?? "could not be opened" };
}

/** The file's meta table: its schema, the store it mirrors, when it was last current. */
export function fileMeta(db: Database): Map<string, string> {
  return new Map((db.query("SELECT key, value FROM meta").all() as { key: string; value: string }[]).map((row) => [row.key, row.value]));
}

/** Why an existing file cannot serve `identity`, or undefined when it can (or is new). */
function staleness(db: Database, identity: ProjectionIdentity): string | undefined {
  const meta = fileMeta(db);
  const schema = meta.get("schema");
  if (schema === undefined) return undefined;
  if (schema !== identity.schema) return `schema ${schema}, this plugin's is ${identity.schema}`;
  if (meta.get("store") !== identity.store || meta.get("store_file") !== identity.storeFile) return "it mirrored another store";
  if (meta.get("visibility") !== identity.visibility) return "tool visibility changed";
  return undefined;
}
