// The projection's own SQLite file, in the user's cache folder, never the host's store: per
// session its documents' number and length and its change stamp, and per term the sessions whose
// documents hold it and in how many documents (the terms for typo lookups are that table's keys). Disposable: a file of another schema version, of
// another store, or built for another tool visibility is deleted and built again; a corrupt one
// is renamed aside (quarantined) and built again. Busy (another process writing it) is not
// corruption: the write is tried again on a later pass.

import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join } from "node:path";
import { openWritable, type Database } from "../sqlite-reader.ts";

/** Bumped whenever the tables or what they mean change: an older file is rebuilt. */
export const PROJECTION_SCHEMA = "2";

export interface ProjectionIdentity {
  /** The store file mirrored. */
  store: string;
  /** The store file's device and inode: a store deleted and made again at the same path is another store. */
  storeFile: string;
  /** The tool visibility the documents were cut with (show_tool_input / show_tool_output). */
  visibility: string;
}

export interface ProjectedSession {
  id: string;
  /** The session's `updated` time as listed when it was projected. */
  updated: number;
  /** The store's change stamp read before its messages were. */
  stamp: string;
  docs: number;
  length: number;
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

const TABLES = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS session (no INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, updated INTEGER NOT NULL, stamp TEXT NOT NULL, docs INTEGER NOT NULL, length INTEGER NOT NULL, complete INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS posting (term TEXT NOT NULL, session INTEGER NOT NULL, df INTEGER NOT NULL, PRIMARY KEY (term, session)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS posting_session ON posting (session);
`;

/** SQLite's page cache for the projection file (KiB): bounded, on the heap of the SQLite library. */
const PAGE_CACHE_KIB = 32768;

/** Postings removed or written per statement batch: one batch is a few milliseconds. */
export const POSTING_BATCH = 2000;

export interface ProjectionDb {
  readonly path: string;
  /** Every session projected, complete or not. */
  sessions(): Map<string, ProjectedSession & { complete: boolean }>;
  /** Marks the session incomplete and removes up to POSTING_BATCH of its postings; true when none are left. */
  clearSome(id: string, updated: number): boolean;
  /** Adds postings of a session being projected (at most POSTING_BATCH per call). */
  addPostings(id: string, postings: readonly (readonly [string, number])[]): void;
  /** The session projected whole. */
  complete(session: ProjectedSession): void;
  /** Forgets a session's row (its postings cleared first with clearSome). */
  drop(id: string): void;
  /** Sessions holding the term, and in how many documents. */
  postings(term: string): { id: string; term: string; df: number }[];
  /** Terms starting with `first` whose length is in [min, max]. */
  vocabulary(first: string, min: number, max: number): string[];
  meta(key: string): string | undefined;
  setMeta(key: string, value: string): void;
  close(): void;
}

/** The smallest string above every string that starts with `prefix`. */
function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

function over(db: Database, path: string): ProjectionDb {
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  // Never wait on another writer: a synchronous driver would hold the host's event loop.
  db.exec("PRAGMA busy_timeout = 0");
  // Postings land all over the term-keyed tree: with SQLite's default 2 MB page cache, most
  // inserts missed it (measured 90 µs a posting on 300 synthetic sessions).
  db.exec(`PRAGMA cache_size = -${PAGE_CACHE_KIB}`);
  db.exec(TABLES);
  const q = {
    all: db.query("SELECT id, updated, stamp, docs, length, complete FROM session"),
    no: db.query("SELECT no FROM session WHERE id = ?"),
    upsert: db.query(
      "INSERT INTO session (id, updated, stamp, docs, length, complete) VALUES (?1, ?2, '', 0, 0, 0) ON CONFLICT (id) DO UPDATE SET updated = ?2, stamp = '', complete = 0",
    ),
    clear: db.query("DELETE FROM posting WHERE (term, session) IN (SELECT term, session FROM posting WHERE session = ?1 LIMIT ?2)"),
    left: db.query("SELECT 1 FROM posting WHERE session = ? LIMIT 1"),
    posting: db.query("INSERT OR REPLACE INTO posting (term, session, df) VALUES (?, ?, ?)"),
    done: db.query("UPDATE session SET updated = ?2, stamp = ?3, docs = ?4, length = ?5, complete = 1 WHERE id = ?1"),
    drop: db.query("DELETE FROM session WHERE id = ?"),
    exact: db.query("SELECT s.id AS id, p.term AS term, p.df AS df FROM posting p JOIN session s ON s.no = p.session WHERE p.term = ?"),
    // Typo lookups only (a word found nowhere): a range of the postings' own key, no table of terms to keep up.
    words: db.query("SELECT DISTINCT term FROM posting WHERE term >= ?1 AND term < ?2 AND length(term) BETWEEN ?3 AND ?4"),
    meta: db.query("SELECT value FROM meta WHERE key = ?"),
    setMeta: db.query("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)"),
  };
  const numberOf = (id: string) => (q.no.get(id) as { no: number } | null)?.no;
  const inTransaction = (work: () => void) => {
    db.exec("BEGIN IMMEDIATE");
    try {
      work();
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  };
  return {
    path,
    sessions() {
      const out = new Map<string, ProjectedSession & { complete: boolean }>();
      for (const row of q.all.all() as (ProjectedSession & { complete: number })[]) out.set(row.id, { ...row, complete: row.complete === 1 });
      return out;
    },
    clearSome(id, updated) {
      let empty = false;
      inTransaction(() => {
        q.upsert.get(id, updated);
        const no = numberOf(id)!;
        q.clear.get(no, POSTING_BATCH);
        empty = q.left.get(no) === null;
      });
      return empty;
    },
    addPostings(id, postings) {
      inTransaction(() => {
        const no = numberOf(id);
        if (no === undefined) return;
        for (const [term, df] of postings) {
          q.posting.get(term, no, df);
        }
      });
    },
    complete(session) {
      q.done.get(session.id, session.updated, session.stamp, session.docs, session.length);
    },
    drop(id) {
      q.drop.get(id);
    },
    postings(term) {
      return q.exact.all(term) as { id: string; term: string; df: number }[];
    },
    vocabulary(first, min, max) {
      return (q.words.all(first, prefixEnd(first), min, max) as { term: string }[]).map((row) => row.term);
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
      if (!db) return { unavailable: "no SQLite driver in this runtime (Bun's bun:sqlite, or node:sqlite from Node 22.5)" };
      const opened = over(db, path);
      const stale = staleness(opened, identity);
      if (stale) {
        opened.close();
        db = undefined;
        removeProjection(path);
        rebuilt = stale;
        continue;
      }
      if (opened.meta("schema") === undefined) {
        opened.setMeta("schema", PROJECTION_SCHEMA);
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

/** Why an existing file cannot serve `identity`, or undefined when it can (or is new). */
function staleness(db: ProjectionDb, identity: ProjectionIdentity): string | undefined {
  const schema = db.meta("schema");
  if (schema === undefined) return undefined;
  if (schema !== PROJECTION_SCHEMA) return `schema ${schema}, this plugin's is ${PROJECTION_SCHEMA}`;
  if (db.meta("store") !== identity.store || db.meta("store_file") !== identity.storeFile) return "it mirrored another store";
  if (db.meta("visibility") !== identity.visibility) return "tool visibility changed";
  return undefined;
}
