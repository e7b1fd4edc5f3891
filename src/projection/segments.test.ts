import { describe, expect, it } from "vitest";
import { ChunkList } from "../search/projection-contract.ts";
import { decodeChunkTable } from "./chunk-table-blob.ts";
import { memoryOpener } from "./testing/memory-projection-db.ts";
import { type ProjectionDb, projectionSchema, type SegmentRow } from "./projection-db.ts";
import { SegmentBuffer } from "./segment-buffer.ts";
import { decodeChunks } from "./postings-blob.ts";
import { mergeChoice, mergeSegments, termPostings, writeSegment } from "./segments.ts";
import { DEFAULT_TUNING } from "../search/projection-contract.ts";

const identity = { store: "s", storeFile: "1:1", visibility: "v", schema: projectionSchema(DEFAULT_TUNING) };
const open = async (opener = memoryOpener()): Promise<ProjectionDb> => {
  const opened = await opener("file", identity);
  if (!("db" in opened)) throw new Error("not opened");
  return opened.db;
};
const session = (id: string) => ({ id, updated: 1, stamp: id, docs: 1, length: 1, turns: 1 });
/** A session whose term `t` is held by chunks 0 … df − 1, once each. */
const counted = (terms: Record<string, number>) => ({
  docs: 1,
  length: 1,
  postings: new Map(Object.entries(terms).map(([term, df]) => [term, Array.from({ length: df }, (_, c) => [c, 1, 10, c]).flat()])),
  chunks: new ChunkList(),
  turns: 1,
  preview: "",
});
const noPause = () => undefined;

function postingsOf(db: ProjectionDb, segments: readonly SegmentRow[], term: string): [number, number][] {
  const out: [number, number][] = [];
  termPostings(db, segments, term, (no, df) => out.push([no, df]));
  return out;
}

describe("segments", () => {
  it("writes a buffer as one row per term, numbering its sessions after the file's last number", async () => {
    const db = await open();
    const buffer = new SegmentBuffer(DEFAULT_TUNING);
    await buffer.add(session("a"), counted({ cache: 2, queue: 1 }), noPause);
    await buffer.add(session("b"), counted({ cache: 1 }), noPause);
    const first = await writeSegment(db, buffer, noPause);
    expect(first.sessions.map((s) => [s.id, s.no])).toEqual([
      ["a", 1],
      ["b", 2],
    ]);
    expect(first.segment).toEqual({ no: 1, postings: 3 });
    buffer.clear();
    // A session buffered twice is published at its later place; the earlier one's postings are not written.
    await buffer.add(session("a"), counted({ old: 1 }), noPause);
    await buffer.add(session("a"), counted({ cache: 5 }), noPause);
    const second = await writeSegment(db, buffer, noPause);
    expect(second.sessions.map((s) => [s.id, s.no])).toEqual([["a", 4]]);
    expect(db.segments()).toEqual([first.segment, second.segment]);
    expect(postingsOf(db, db.segments(), "cache")).toEqual([
      [1, 2],
      [2, 1],
      [4, 5],
    ]);
    expect(postingsOf(db, db.segments(), "old")).toEqual([]);
    expect(db.sessionsAfter(0).sessions.find((s) => s.id === "a")?.no).toBe(4);
  });

  it("merges segments into one, dropping postings of numbers no session holds, in number order", async () => {
    const db = await open();
    const buffer = new SegmentBuffer(DEFAULT_TUNING);
    const written: SegmentRow[] = [];
    for (const batch of [["a", "b"], ["c"], ["a"], ["d"]]) {
      buffer.clear();
      for (const id of batch) await buffer.add(session(id), counted({ shared: id.charCodeAt(0), [`only${id}`]: 1 }), noPause);
      written.push((await writeSegment(db, buffer, noPause)).segment);
    }
    const live = new Set(db.sessionsAfter(0).sessions.map((s) => s.no));
    expect(live).toEqual(new Set([2, 3, 4, 5]));
    // The merged order interleaves: the later segment's numbers come before the earlier ones'.
    const inputs = [written[3]!, written[0]!, written[2]!];
    let swapped: SegmentRow[] = [];
    await mergeSegments(db, inputs, live, noPause, (segments) => (swapped = segments));
    expect(swapped).toEqual(db.segments());
    expect(db.segments().map((s) => s.no)).toEqual([2, 5]);
    const merged = db.segments().filter((s) => s.no === 5);
    expect(postingsOf(db, merged, "shared")).toEqual([
      [2, 98],
      [4, 97],
      [5, 100],
    ]);
    expect(postingsOf(db, db.segments(), "onlya")).toEqual([[4, 1]]);
    expect(db.termsAfter(1, undefined, 10)).toEqual([]);
  });

  it("leaves the file as it was when a merge fails, and another connection never sees it half done", async () => {
    const opener = memoryOpener();
    const db = await open(opener);
    const other = await open(opener);
    const buffer = new SegmentBuffer(DEFAULT_TUNING);
    for (const id of ["a", "b"]) {
      buffer.clear();
      await buffer.add(session(id), counted({ word: 1 }), noPause);
      await writeSegment(db, buffer, noPause);
    }
    expect(other.changedElsewhere()).toBe(true);
    const before = db.segments();
    let seenByOther: SegmentRow[] = [];
    const failing = () => {
      seenByOther = other.segments();
      throw new Error("stopped");
    };
    await expect(mergeSegments(db, before, new Set([1, 2]), noPause, failing)).rejects.toThrow("stopped");
    expect(seenByOther).toEqual(before);
    expect(db.segments()).toEqual(before);
    expect(postingsOf(db, before, "word")).toEqual([
      [1, 1],
      [2, 1],
    ]);
  });

  it("chooses MERGE_FAN segments of one size class, the smallest class first, never past MAX_MERGED_POSTINGS", () => {
    const rows = (sizes: number[]) => sizes.map((postings, i) => ({ no: i + 1, postings }));
    expect(mergeChoice(rows([10, 20, 30]))).toBeUndefined();
    expect(mergeChoice(rows([5000, 20, 30, 40, 50, 6000, 7000, 8000, 9000]))?.map((s) => s.no)).toEqual([2, 3, 4, 5]);
    expect(mergeChoice(rows([5000, 6000, 7000, 8000, 9000]))?.map((s) => s.no)).toEqual([1, 2, 3, 4]);
    expect(mergeChoice(rows([1_100_000, 1_200_000, 1_300_000, 1_400_000]))).toBeUndefined();
  });
});

describe("segments: chunks", () => {
  it("keeps each posting's chunks and each session's detail through writes and merges", async () => {
    const db = await open();
    const buffer = new SegmentBuffer(DEFAULT_TUNING);
    const segments: SegmentRow[] = [];
    for (const id of ["a", "b", "c", "d"]) {
      const one = counted({ cache: 2 });
      one.postings.set("cache", [3, 7, 40, 1, 9, 2, 12, 2]);
      one.preview = `preview ${id}`;
      one.chunks.messages.push({ id: `m-${id}`, role: "user", created: 5, flags: 0, turn: 1 });
      one.chunks.parts.push({ id: `p-${id}`, type: "text" });
      one.chunks.chunks.push(0, 0, 0, 12, 0);
      await buffer.add(session(id), one, noPause);
      segments.push((await writeSegment(db, buffer, noPause)).segment);
      buffer.clear();
    }
    const chunksOf = () => {
      const out: number[][] = [];
      termPostings(db, db.segments(), "cache", (no, df, _ceiling, blob, chunksAt) => out.push([no, df, ...decodeChunks(blob, chunksAt, df)]));
      return out;
    };
    const expected = [1, 2, 3, 4].map((no) => [no, 2, 3, 7, 40, 1, 9, 2, 12, 2]);
    expect(chunksOf()).toEqual(expected);
    await mergeSegments(db, segments, new Set([1, 2, 3, 4]), noPause, () => {});
    expect(db.segments()).toHaveLength(1);
    expect(chunksOf()).toEqual(expected);
    expect(db.preview("c")).toBe("preview c");
    const stored = db.chunkTable("c")!;
    expect(stored.no).toBe(3);
    expect(decodeChunkTable(stored).part(0).id).toBe("p-c");
    db.begin();
    db.dropSession("c");
    db.commit();
    expect(db.preview("c")).toBeUndefined();
    expect(db.chunkTable("c")).toBeUndefined();
  });
});
