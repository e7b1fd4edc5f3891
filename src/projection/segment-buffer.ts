// Sessions projected but not yet written: their postings gathered per term in memory, so a
// segment of many sessions is written as one row per term (segments.ts) instead of one row per
// term and session. Sessions are numbered by their place here; the numbers the file gives them
// are assigned when the segment is written.

import { reachCeiling, type SessionTerms } from "../search/api.ts";
import type { ProjectedSession, SessionDetail } from "./projection-db.ts";

/** A session waiting in the buffer: what its row will say once its segment is written (`no` still unset). */
type BufferedSession = Omit<ProjectedSession, "no">;

export class SegmentBuffer {
  /** Per term, flat postings as postings-blob.ts lays them out, by place instead of number, places ascending. */
  readonly terms = new Map<string, number[]>();
  readonly sessions: BufferedSession[] = [];
  /** Per place, the session's preview and chunks, written beside its row. */
  readonly details: SessionDetail[] = [];
  postings = 0;

  /**
   * Adds a session's terms, pausing when `pause` says a turn is due (a session may hold a hundred
   * thousand terms); a session added twice keeps only its later place (the earlier one is never
   * published).
   */
  async add(session: BufferedSession, counted: SessionTerms, pause: () => Promise<void> | undefined): Promise<void> {
    const place = this.sessions.length;
    this.sessions.push(session);
    this.details.push({ preview: counted.preview, chunks: counted.chunks });
    for (const [term, df] of counted.terms) {
      let list = this.terms.get(term);
      if (!list) this.terms.set(term, (list = []));
      list.push(place, df, counted.reach.get(term) ?? reachCeiling());
      const chunks = counted.postings.get(term);
      if (chunks?.length !== 2 * df) throw new Error(`term ${term}: ${df} documents, ${(chunks?.length ?? 0) / 2} chunks`);
      for (const value of chunks) list.push(value);
      this.postings++;
      const due = pause();
      if (due) await due;
    }
  }

  /** The place each session id is published at: its last. */
  latest(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [place, session] of this.sessions.entries()) out.set(session.id, place);
    return out;
  }

  clear(): void {
    this.terms.clear();
    this.sessions.length = 0;
    this.details.length = 0;
    this.postings = 0;
  }
}
