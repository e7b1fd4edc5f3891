// The projection's postings as segments: a buffer of many sessions written as one row per term
// (writeSegment), segments of a size merged by MERGE_FAN into one (mergeSegments, choice by
// mergeChoice), so a term is found in few rows and postings of sessions projected again since are
// dropped. Each runs in one transaction held across turns of the event loop: another process sees
// the file before or after it, this one's searches see only segments published (a merge swaps its
// segments in memory before it deletes the old ones' rows). Every step between turns is one row.

import { ByteWriter, decodeDocuments, decodeHeads, PostingsWriter, scanPostings, VarintReader } from "./postings-blob.ts";
import type { ProjectedSession, ProjectionDb, SegmentRow } from "./projection-db.ts";
import type { SegmentBuffer } from "./segment-buffer.ts";

type Pause = () => Promise<void> | undefined;

/** Segments whose postings are within a factor of MERGE_FAN of each other are merged MERGE_FAN at a time. */
const MERGE_FAN = 4;
/**
 * No merge makes a segment larger: the merge's transaction is checkpointed from the WAL into the
 * file at its commit, in one synchronous call (about 10 MB of file at this size).
 */
const MAX_MERGED_POSTINGS = 4_000_000;
/** Rows of each merged segment read per query. */
const MERGE_PAGE = 256;
/** Rows of a merged-away segment deleted per statement. */
const CLEAR_ROWS = 256;

/** Runs `work` in one write transaction, rolled back when it fails. */
export async function inTransaction<T>(db: ProjectionDb, work: () => Promise<T>): Promise<T> {
  db.begin();
  try {
    const out = await work();
    db.commit();
    return out;
  } catch (error) {
    try {
      db.rollback();
    } catch {
      // SQLite rolled it back itself (a full disk, a closed file)
    }
    throw error;
  }
}

/** The buffer's sessions written as one new segment and published; the buffer is left as it was. */
export async function writeSegment(db: ProjectionDb, buffer: SegmentBuffer, pause: Pause): Promise<{ segment: SegmentRow; sessions: ProjectedSession[] }> {
  return inTransaction(db, async () => {
    // Read under the write lock: numbers and the segment's are unique whoever else writes the file.
    const base = Number(db.meta("next_no") ?? "1");
    const no = (db.segments().at(-1)?.no ?? 0) + 1;
    const latest = buffer.latest();
    const published = new Uint8Array(buffer.sessions.length);
    for (const place of latest.values()) published[place] = 1;
    // A session added twice leaves postings of its earlier place, unpublished, to drop.
    const whole = latest.size === buffer.sessions.length;
    let postings = 0;
    for (const [place, count] of buffer.termCounts.entries()) if (published[place]) postings += count;
    for (const [term, stream] of buffer.terms.entries()) {
      const data = whole ? renumbered(stream, base) : publishedOnly(stream, base, published);
      if (data) db.writeTerm(no, term, data);
      const due = pause();
      if (due) await due;
    }
    const segment = { no, postings };
    db.putSegment(segment);
    const sessions = [...latest].map(([, place]) => ({ ...buffer.sessions[place]!, no: base + place }));
    for (const session of sessions) {
      db.putSession(session);
      db.putDetail(session.id, session.no, buffer.details[session.no - base]!);
    }
    db.setMeta("next_no", String(base + buffer.sessions.length));
    return { segment, sessions };
  });
}

/** A buffered term's postings, places made numbers (`base` + place): only the first gap changes. */
function renumbered(stream: Uint8Array, base: number): Uint8Array {
  const reader = new VarintReader(stream);
  const first = reader.next();
  const out = new ByteWriter(stream.length + 8);
  out.varint(base + first);
  out.append(stream, reader.at, stream.length);
  return out.take();
}

/** As renumbered, keeping only the postings of places `published` marks; undefined when none is. */
function publishedOnly(stream: Uint8Array, base: number, published: Uint8Array): Uint8Array | undefined {
  const out = new PostingsWriter();
  scanPostings(stream, (place, start, end) => {
    if (published[place]) out.add(base + place, stream, start, end);
  });
  return out.count > 0 ? out.take() : undefined;
}

/** Which segments to merge now, if any: MERGE_FAN of the same size class, the smallest class first, within MAX_MERGED_POSTINGS. */
export function mergeChoice(segments: readonly SegmentRow[]): SegmentRow[] | undefined {
  const byClass = new Map<number, SegmentRow[]>();
  for (const segment of segments) {
    const size = Math.floor(Math.log(Math.max(segment.postings, 1)) / Math.log(MERGE_FAN));
    byClass.get(size)?.push(segment) ?? byClass.set(size, [segment]);
  }
  const full = [...byClass]
    .map(([size, members]) => [size, members.slice(0, MERGE_FAN)] as const)
    .filter(([, members]) => members.length === MERGE_FAN && members.reduce((sum, segment) => sum + segment.postings, 0) <= MAX_MERGED_POSTINGS)
    .sort(([a], [b]) => a - b)[0];
  return full?.[1];
}

/**
 * Merges `inputs` into one segment, keeping only postings whose number `live` holds. `swapped`
 * is told the segments published once the merged one replaces the inputs (before their rows go).
 */
export async function mergeSegments(
  db: ProjectionDb,
  inputs: readonly SegmentRow[],
  live: ReadonlySet<number>,
  pause: Pause,
  swapped: (segments: SegmentRow[]) => void,
): Promise<void> {
  await inTransaction(db, async () => {
    const no = (db.segments().at(-1)?.no ?? 0) + 1;
    const cursors = inputs.map((input) => ({ segment: input.no, rows: db.termsAfter(input.no, undefined, MERGE_PAGE), at: 0 }));
    let postings = 0;
    /** The term's live postings of every input: number, its input's row, where its body is. */
    const merged: [no: number, data: Uint8Array, start: number, end: number][] = [];
    for (;;) {
      let term: string | undefined;
      for (const cursor of cursors) {
        const row = cursor.rows[cursor.at];
        if (row && (term === undefined || row.term < term)) term = row.term;
      }
      if (term === undefined) break;
      merged.length = 0;
      for (const cursor of cursors) {
        const row = cursor.rows[cursor.at];
        if (row?.term !== term) continue;
        scanPostings(row.data, (number, start, end) => {
          if (live.has(number)) merged.push([number, row.data, start, end]);
        });
        // A page read whole is followed by the next; a shorter one was the segment's last.
        if (++cursor.at === cursor.rows.length && cursor.rows.length === MERGE_PAGE) {
          cursor.rows = db.termsAfter(cursor.segment, term, MERGE_PAGE);
          cursor.at = 0;
        }
      }
      if (merged.length > 0) {
        // Each input's numbers ascend; inputs' ranges may interleave.
        merged.sort((a, b) => a[0] - b[0]);
        const out = new PostingsWriter();
        for (const [number, data, start, end] of merged) out.add(number, data, start, end);
        db.writeTerm(no, term, out.take());
        postings += merged.length;
      }
      const due = pause();
      if (due) await due;
    }
    for (const input of inputs) db.dropSegment(input.no);
    db.putSegment({ no, postings });
    swapped(db.segments());
    for (const input of inputs) {
      while (!db.clearSome(input.no, CLEAR_ROWS)) {
        const due = pause();
        if (due) await due;
      }
    }
  });
}

/**
 * Calls visit(number, df, ceiling, blob, chunksAt) for every posting of `term` in the segments
 * (dead numbers included: the caller knows the live ones), as decodeHeads gives them: the chunks
 * are decodeChunks(blob, chunksAt, df).
 */
export function termPostings(
  db: ProjectionDb,
  segments: readonly SegmentRow[],
  term: string,
  visit: (no: number, df: number, ceiling: number, blob: Uint8Array, chunksAt: number) => void,
): void {
  for (const segment of segments) {
    const data = db.termData(segment.no, term);
    if (data) decodeHeads(data, (no, df, ceiling, chunksAt) => visit(no, df, ceiling, data, chunksAt));
  }
}

/** As termPostings, the documents alone (the chunks passed over). */
export function termDocuments(db: ProjectionDb, segments: readonly SegmentRow[], term: string, visit: (no: number, df: number) => void): void {
  for (const segment of segments) {
    const data = db.termData(segment.no, term);
    if (data) decodeDocuments(data, visit);
  }
}

/** The segments' terms starting with `first` whose length is in [min, max], each once, sorted. */
export function segmentVocabulary(db: ProjectionDb, segments: readonly SegmentRow[], first: string, min: number, max: number): string[] {
  const terms = new Set<string>();
  for (const segment of segments) for (const term of db.vocabulary(segment.no, first, min, max)) terms.add(term);
  return [...terms].sort();
}
