// The SQLite driver both store generations' readers and the projection open databases with:
// Bun's bun:sqlite in the host (1.x and OpenCode 2's Bun builds), node:sqlite on Node 22.5 and
// later, in one shape; where the host keeps its store and its size; and the chunking of whole-session reads
// (each query one synchronous block of about QUERY_BYTES, so a big session never holds the event
// loop for its length).

import { existsSync, readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

/** The slice of bun:sqlite's Database we use. */
interface Statement {
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
}
export interface Database {
  query(sql: string): Statement;
  exec(sql: string): void;
  close(): void;
}

/** Bytes of rows one query of a whole-session read aims at (a millisecond or two to fetch). */
export const QUERY_BYTES = 256 * 1024;
/** Rows one query of a whole-session read fetches: at most this many, and at most twice the last count. */
const MAX_QUERY_ROWS = 256;
/** Rows for the next query of a whole-session read: the last count scaled to QUERY_BYTES by the bytes it fetched. */
export function nextRowCount(last: number, bytes: number): number {
  const scaled = Math.floor((last * QUERY_BYTES) / Math.max(bytes, 1));
  return Math.max(1, Math.min(MAX_QUERY_ROWS, last * 2, scaled));
}

export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_DATA_HOME && env.XDG_DATA_HOME.trim() !== "" ? env.XDG_DATA_HOME : join(homedir(), ".local", "share");
  return join(base, "opencode");
}

/**
 * The store files to try: the one OPENCODE_DB names (absolute, or relative to the data dir), as
 * the host itself resolves it (1.18.33 and OpenCode 2 alike); else opencode.db first, then channel
 * builds' opencode-<channel>.db.
 */
export function candidateDatabases(dir: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const named = env.OPENCODE_DB?.trim();
  if (named) {
    // An in-memory store leaves nothing on disk to read.
    if (named === ":memory:") return [];
    const path = isAbsolute(named) ? named : join(dir, named);
    return existsSync(path) ? [path] : [];
  }
  const out: string[] = [];
  if (existsSync(join(dir, "opencode.db"))) out.push(join(dir, "opencode.db"));
  try {
    for (const name of readdirSync(dir).sort()) if (/^opencode-[\w.-]+\.db$/.test(name)) out.push(join(dir, name));
  } catch {
    // no data dir
  }
  return out;
}

/** Where candidateDatabases looked, for a message saying it found nothing. */
export function whereLooked(dir: string, env: NodeJS.ProcessEnv = process.env): string {
  const named = env.OPENCODE_DB?.trim();
  return named ? `${dir} (OPENCODE_DB=${named})` : dir;
}

/** A SQLite file's size on disk: the database with its write-ahead log. */
export function fileBytes(path: string): number {
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

/** The columns a table has; empty when the store has no such table. */
export function tableColumns(db: Database, table: string): Set<string> {
  return new Set((db.query(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((row) => row.name));
}

/** The tables and columns of `required` the store lacks, as text; empty when it has them all. */
export function missingColumns(db: Database, required: Readonly<Record<string, readonly string[]>>): string[] {
  const problems: string[] = [];
  for (const [table, columns] of Object.entries(required)) {
    const present = tableColumns(db, table);
    if (present.size === 0) problems.push(`table ${table} missing`);
    else for (const column of columns) if (!present.has(column)) problems.push(`${table}.${column} missing`);
  }
  return problems;
}

/** The slice of `node:sqlite`'s DatabaseSync we use (Node 22.5 and later). */
export interface NodeSqliteDatabase {
  prepare(sql: string): { all(...params: unknown[]): unknown[]; get(...params: unknown[]): unknown };
  exec(sql: string): void;
  close(): void;
}

/** Node's driver in the shape of Bun's: a statement per query, and no row as null (Node answers undefined). */
export function nodeDatabase(db: NodeSqliteDatabase): Database {
  return {
    query(sql) {
      const statement = db.prepare(sql);
      return { all: (...params) => statement.all(...params), get: (...params) => statement.get(...params) ?? null };
    },
    exec: (sql) => db.exec(sql),
    close: () => db.close(),
  };
}

type Driver = { bun: new (path: string, options: object) => Database } | { node: new (path: string, options?: object) => NodeSqliteDatabase };

/** Bun's driver where the host runs in Bun, else `node:sqlite`; undefined when the runtime has neither. */
async function sqliteDriver(): Promise<Driver | undefined> {
  // Specifiers in variables: bundlers and Vite leave the import to the runtime.
  if (typeof (globalThis as { Bun?: unknown }).Bun !== "undefined") {
    const specifier = "bun:sqlite";
    return { bun: ((await import(/* @vite-ignore */ specifier)) as { Database: new (path: string, options: object) => Database }).Database };
  }
  const specifier = "node:sqlite";
  const module = (await import(/* @vite-ignore */ specifier).catch(() => undefined)) as
    | { DatabaseSync: new (path: string, options?: object) => NodeSqliteDatabase }
    | undefined;
  return module ? { node: module.DatabaseSync } : undefined;
}

/** A database file of our own (the projection's cache), opened read-write and created when absent; undefined without a driver. */
export async function openWritable(path: string): Promise<Database | undefined> {
  const driver = await sqliteDriver();
  if (!driver) return undefined;
  return "bun" in driver ? new driver.bun(path, { create: true, readwrite: true }) : nodeDatabase(new driver.node(path));
}

/** Why no store can be read in this runtime (openReadOnly answered undefined). */
export const NO_SQLITE_DRIVER = "no SQLite driver in this runtime (Bun's bun:sqlite, or node:sqlite from Node 22.5)";

/**
 * The store opened read-only and query-only, so it can never write: with Bun's driver where the
 * host runs in Bun (OpenCode 1.x, OpenCode 2's Bun executable), with `node:sqlite` where it runs in
 * Node (OpenCode 2 also ships a Node executable); undefined when the runtime has neither.
 */
export async function openReadOnly(path: string): Promise<Database | undefined> {
  const driver = await sqliteDriver();
  if (!driver) return undefined;
  // readOnly is ignored before Node 22.12; query_only refuses writes on every version.
  const db = "bun" in driver ? new driver.bun(path, { readonly: true }) : nodeDatabase(new driver.node(path, { readOnly: true }));
  db.exec("PRAGMA query_only = ON");
  return db;
}

/**
 * Opens the first database in `dir` that `accept` takes (it answers what it made of the open
 * database, or why it will not read it, and the database is closed); or explains why none fits.
 */
export async function openFirst<T>(dir: string, accept: (db: Database, path: string) => T | string): Promise<T | string> {
  const candidates = candidateDatabases(dir);
  if (candidates.length === 0) return `no database in ${whereLooked(dir)}`;
  const reasons: string[] = [];
  for (const path of candidates) {
    let db: Database | undefined;
    try {
      db = await openReadOnly(path);
      if (!db) return NO_SQLITE_DRIVER;
      const accepted = accept(db, path);
      if (typeof accepted !== "string") return accepted;
      reasons.push(`${path}: ${accepted}`);
      db.close();
    } catch (error) {
      reasons.push(`${path}: ${error instanceof Error ? error.message : String(error)}`);
      db?.close();
    }
  }
  return reasons.join("; ");
}
