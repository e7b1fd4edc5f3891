// What `opencode-engram doctor` says of a store's projection: where it is, how big, which store
// and schema it was built for, and how many of the store's sessions it holds as they are now.

import { existsSync } from "node:fs";
import { storeSessions, type Store } from "../store/store-file.ts";
import type { SearchTuning } from "../search/projection-contract.ts";
import { fileBytes, openWritable } from "../store/sqlite.ts";
import { storeFeed } from "./feed.ts";
import { cacheDir, diskIdentity, fileMeta, projectionPath, projectionSchema } from "./projection-db.ts";

export interface ProjectionReport {
  file: string;
  exists: boolean;
  bytes: number;
  /** Why the file cannot serve this store (another schema or store), if so: the plugin rebuilds it. */
  mismatch?: string;
  /** Sessions projected as the store holds them now, of `total`. */
  current: number;
  total: number;
  /** The end of the last pass that found every session current (epoch ms). */
  currentAt?: number;
}

export async function projectionReport(store: Store, tuning: SearchTuning, dir: string = cacheDir()): Promise<ProjectionReport> {
  const file = projectionPath(store.path, dir);
  const sessions = await storeSessions(store);
  const report: ProjectionReport = { file, exists: existsSync(file), bytes: 0, current: 0, total: sessions.length };
  if (!report.exists) return report;
  report.bytes = fileBytes(file);
  // Our own file: opened as the plugin opens it (WAL needs its shared-memory file), only read here.
  const db = await openWritable(file);
  if (!db) return { ...report, mismatch: "no SQLite driver in this runtime" };
  try {
    const meta = fileMeta(db);
    const schema = projectionSchema(tuning);
    if (meta.get("schema") !== schema) report.mismatch = `schema ${meta.get("schema")}, this version's is ${schema}`;
    else if (meta.get("store") !== store.path || meta.get("store_file") !== diskIdentity(store.path)) report.mismatch = "built for another store";
    const at = Number(meta.get("current_at"));
    if (Number.isFinite(at) && at > 0) report.currentAt = at;
    const rows = new Map(
      (db.query("SELECT id, updated, stamp FROM session").all() as { id: string; updated: number; stamp: string }[]).map((row) => [row.id, row]),
    );
    const feed = storeFeed(store);
    for (const session of sessions) {
      const row = rows.get(session.id);
      if (row && row.updated === (session.updated ?? 0) && row.stamp === (await feed.stamp(session.id))) report.current++;
    }
  } catch (error) {
    report.mismatch = `unreadable (${error instanceof Error ? error.message : String(error)}): the plugin quarantines and rebuilds it`;
  } finally {
    db.close();
  }
  return report;
}
