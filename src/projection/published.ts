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
  /** The highest number of a session row this reader holds: rows above it are new to it. */
  private highest = 0;
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
    this.highest = 0;
    this.segments = [];
    this.watermark = undefined;
  }

  /** Everything read again from the file. */
  reload(db: ProjectionDb): void {
    this.rows = new Map();
    this.byNo = new Map();
    this.highest = 0;
    this.catchUp(db);
  }

  /** Another process wrote the file since it was last read: brought up to it (catchUp). */
  reloadIfChanged(db: ProjectionDb): void {
    if (db.changedElsewhere()) this.catchUp(db);
  }

  /**
   * Brought up to the file as of one moment: the session rows numbered above the highest this
   * reader holds (new sessions, and sessions projected again, which get a higher number), the
   * segments and the watermark. Where the file then holds fewer rows than this reader, some were
   * dropped, and every row is read again. The build thread writes the file every pass that
   * changes anything, and reading all 10,000 rows again took 32 to 94 ms of the host's thread.
   */
  private catchUp(db: ProjectionDb): void {
    db.snapshot(() => {
      const after = db.sessionsAfter(this.highest);
      for (const row of after.sessions) this.put(row);
      if (this.rows.size !== after.total) {
        this.rows = new Map();
        this.byNo = new Map();
        this.highest = 0;
        for (const row of db.sessionsAfter(0).sessions) this.put(row);
      }
      this.segments = db.segments();
      this.watermark = db.meta(WATERMARK_KEY);
    });
  }

  /** Sessions published by a segment just written (their earlier numbers, if any, die). */
  add(segment: SegmentRow, sessions: readonly ProjectedSession[]): void {
    this.segments.push(segment);
    for (const session of sessions) this.put(session);
  }

  private put(session: ProjectedSession): void {
    const earlier = this.rows.get(session.id);
    if (earlier) this.byNo.delete(earlier.no);
    this.rows.set(session.id, session);
    this.byNo.set(session.no, session);
    if (session.no > this.highest) this.highest = session.no;
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
