// What of the projection file a search may use: the sessions published (by id, and by the number
// their postings carry) and the segments their postings sit in, kept in memory beside the file
// and read again, as of one moment, when another process wrote it.

import type { ProjectedSession, ProjectionDb, SegmentRow } from "./projection-db.ts";
import { segmentVocabulary, termDocuments } from "./segments.ts";

/** The meta key of Published.watermark. */
export const WATERMARK_KEY = "watermark";

export class Published {
  private rows = new Map<string, ProjectedSession>();
  private byNo = new Map<number, ProjectedSession>();
  segments: SegmentRow[] = [];
  /**
   * The store's watermark at the start of the last pass that completed: every session published
   * is as the store holds it, but those the store names changed since this mark (finder.ts).
   */
  watermark: string | undefined;

  get(id: string): ProjectedSession | undefined {
    return this.rows.get(id);
  }

  ids(): IterableIterator<string> {
    return this.rows.keys();
  }

  /** The numbers of the sessions published: a posting of any other is dead. */
  live(): Set<number> {
    return new Set(this.byNo.keys());
  }

  clear(): void {
    this.rows = new Map();
    this.byNo = new Map();
    this.segments = [];
    this.watermark = undefined;
  }

  reload(db: ProjectionDb): void {
    db.snapshot(() => {
      this.rows = db.sessions();
      this.segments = db.segments();
      this.watermark = db.meta(WATERMARK_KEY);
    });
    this.byNo = new Map([...this.rows.values()].map((row) => [row.no, row]));
  }

  /** Another process wrote the file since it was last read: read again. */
  reloadIfChanged(db: ProjectionDb): void {
    if (db.changedElsewhere()) this.reload(db);
  }

  /** Sessions published by a segment just written (their earlier numbers, if any, die). */
  add(segment: SegmentRow, sessions: readonly ProjectedSession[]): void {
    this.segments.push(segment);
    for (const session of sessions) {
      const earlier = this.rows.get(session.id);
      if (earlier) this.byNo.delete(earlier.no);
      this.rows.set(session.id, session);
      this.byNo.set(session.no, session);
    }
  }

  remove(ids: readonly string[]): void {
    for (const id of ids) {
      const row = this.rows.get(id);
      if (row) this.byNo.delete(row.no);
      this.rows.delete(id);
    }
  }

  /** Each published session holding `term`, with its documents there (a posting of a number since replaced names none). */
  documents(db: ProjectionDb, term: string, visit: (session: ProjectedSession, df: number) => void): void {
    termDocuments(db, this.segments, term, (no, df) => {
      const session = this.byNo.get(no);
      if (session) visit(session, df);
    });
  }

  vocabulary(db: ProjectionDb, first: string, min: number, max: number): string[] {
    return segmentVocabulary(db, this.segments, first, min, max);
  }
}
