// Sessions projected but not yet written: their postings gathered per term in memory, already
// encoded (posting-lists.ts), so a segment of many sessions is written as one row per term
// (segments.ts) instead of one row per term and session; and each one's chunk table encoded as
// the file keeps it (chunk-table-blob.ts). Sessions are numbered by their place here; the
// numbers the file gives them are assigned when the segment is written.

import { type SearchTuning, type SessionTerms, termCeiling } from "../search/projection-contract.ts";
import { encodeChunkTable } from "./chunk-table-blob.ts";
import { PostingLists } from "./posting-lists.ts";
import type { ProjectedSession, SessionDetail } from "./projection-db.ts";

/** A session waiting in the buffer: what its row will say once its segment is written (`no` still unset). */
type BufferedSession = Omit<ProjectedSession, "no">;

export class SegmentBuffer {
  /** Per term, its postings by place instead of number (postings-blob.ts's layout otherwise). */
  readonly terms = new PostingLists();
  readonly sessions: BufferedSession[] = [];
  /** Per place, the session's preview and chunk table, written beside its row. */
  readonly details: SessionDetail[] = [];
  /** Per place, the postings (terms) it added. */
  readonly termCounts: number[] = [];
  postings = 0;

  /** `tuning`: what the sessions were counted with, which their term ceilings score with. */
  constructor(private readonly tuning: SearchTuning) {}

  /**
   * Adds a session's terms, pausing when `pause` says a turn is due (a session may hold a hundred
   * thousand terms); a session added twice keeps only its later place (the earlier one is never
   * published).
   */
  async add(session: BufferedSession, counted: SessionTerms, pause: () => Promise<void> | undefined): Promise<void> {
    const place = this.sessions.length;
    this.sessions.push(session);
    this.details.push({ preview: counted.preview, ...encodeChunkTable(counted.chunks) });
    this.termCounts.push(counted.postings.size);
    const average = counted.length / counted.docs;
    for (const [term, chunks] of counted.postings.entries()) {
      this.terms.add(term, place, chunks, termCeiling(chunks, average, this.tuning));
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
    this.termCounts.length = 0;
    this.postings = 0;
  }
}
