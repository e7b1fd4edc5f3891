// The one term structure of a session's chunks: per term (interned from spans of folded text in
// a TermTable: no string per token), the chunks holding it and its weighted frequency in each (a
// tool call's input counted inputWeight times, as rescore.ts's termCounts counts it; past
// MAX_COUNTED_TF it counts no more, so it is kept as that), packed `chunk × 256 + tf` in one uint32
// as the index's postings were. Chunks are counted one at a time (add), their terms and postings
// kept in typed-array blocks, and
// grouped by term in one counting sort (groupSteps); chunks counted since the last grouping are
// read from their blocks until the next one. The warm index holds it in Orama (chunk-index.ts),
// the projection stores and ranks from it (index/session-terms.ts, collect/projected-ranking.ts).
// Counting a 30 MB session this way instead of in a Map of number arrays per term took a
// fraction of the time and heap (docs/search-notes.md, "Counting a session for the projection").

import type { TokenSpans } from "../text/tokenize.ts";
import { CHUNK_STRIDE, type ChunkMessage, type ChunkPart, type ChunkTable } from "../types.ts";
import type { HitType } from "../text/documents.ts";
import { grown } from "../../util/grow.ts";
import { MAX_COUNTED_TF } from "../rank/bm25.ts";
import { TermTable } from "./components/term-table.ts";

/** Postings per block: half a MB a block, so they are never copied to grow. */
const PAIR_BLOCK = 1 << 16;

interface PairBlock {
  term: Int32Array;
  posting: Uint32Array;
}

/** A chunk's posting: chunk × 256 + tf (at most MAX_COUNTED_TF, 255; tf ≥ 1). */
function posting(chunk: number, tf: number): number {
  return chunk * 256 + Math.min(tf, MAX_COUNTED_TF);
}

export class TermCounts {
  readonly terms = new TermTable();
  /** Per term id while a chunk is counted: its weighted frequency, and the chunk it was last seen in (+1, 0: none). */
  private tf = new Float64Array(1024);
  private seenIn = new Int32Array(1024);
  private readonly touched: number[] = [];
  /** Grouped: per term id (of those there were), where its postings start in `postings`, one more entry for the end. */
  private starts = new Int32Array(1);
  private postings = new Uint32Array(0);
  /** The terms and postings counted since the last grouping, in the order counted. */
  private readonly blocks: PairBlock[] = [];
  private pairs = 0;

  /** Postings counted since the last grouping. */
  get ungrouped(): number {
    return this.pairs;
  }

  /** Postings grouped by term. */
  get grouped(): number {
    return this.postings.length;
  }

  /**
   * Adds chunk `chunk`'s terms (chunks in ascending order): `spans` over `folded`, a span starting
   * before `weighted` counted `weight` times (a call's input), the others once.
   */
  add(chunk: number, folded: string, spans: TokenSpans, weighted: number, weight: number): void {
    const data = spans.data;
    const mark = chunk + 1;
    for (let i = 0; i < spans.size; i += 2) {
      const id = this.terms.intern(folded, data[i]!, data[i + 1]!);
      if (id >= this.tf.length) {
        this.tf = grown(this.tf, id + 1);
        this.seenIn = grown(this.seenIn, id + 1);
      }
      const times = data[i]! < weighted ? weight : 1;
      if (this.seenIn[id] !== mark) {
        this.seenIn[id] = mark;
        this.tf[id] = times;
        this.touched.push(id);
      } else this.tf[id] = this.tf[id]! + times;
    }
    for (const id of this.touched) this.pushPair(id, posting(chunk, this.tf[id]!));
    this.touched.length = 0;
  }

  /** Groups the postings counted since the last grouping with the grouped ones, a piece per step (chunks stay ascending per term). */
  *groupSteps(): Generator<void> {
    const terms = this.terms.count;
    const old = this.starts;
    const oldTerms = old.length - 1;
    const starts = new Int32Array(terms + 1);
    for (let t = 0; t < oldTerms; t++) starts[t + 1] = old[t + 1]! - old[t]!;
    yield* this.eachPair((term) => starts[term + 1]!++);
    for (let t = 0; t < terms; t++) starts[t + 1]! += starts[t]!;
    const postings = new Uint32Array(starts[terms]!);
    for (let t = 0; t < oldTerms; t++) postings.set(this.postings.subarray(old[t]!, old[t + 1]!), starts[t]!);
    yield;
    const fill = new Int32Array(terms);
    for (let t = 0; t < terms; t++) fill[t] = starts[t]! + (t < oldTerms ? old[t + 1]! - old[t]! : 0);
    yield* this.eachPair((term, posting) => {
      postings[fill[term]!++] = posting;
    });
    this.starts = starts;
    this.postings = postings;
    this.blocks.length = 0;
    this.pairs = 0;
  }

  /** Groups every posting at once. */
  group(): this {
    for (const _ of this.groupSteps());
    return this;
  }

  /** Calls visit(chunk, tf) for every chunk holding term `id`, chunks ascending. */
  forEachChunk(id: number, visit: (chunk: number, tf: number) => void): void {
    const postings = this.postings;
    if (id + 1 < this.starts.length) for (let at = this.starts[id]!; at < this.starts[id + 1]!; at++) visit(postings[at]! >>> 8, postings[at]! & 0xff);
    if (this.pairs === 0) return;
    for (const [b, block] of this.blocks.entries()) {
      const used = Math.min(PAIR_BLOCK, this.pairs - b * PAIR_BLOCK);
      for (let k = 0; k < used; k++) if (block.term[k] === id) visit(block.posting[k]! >>> 8, block.posting[k]! & 0xff);
    }
  }

  /** Heap bytes held by the arrays. */
  bytes(): number {
    return (
      this.terms.bytes() + this.tf.byteLength + this.seenIn.byteLength + this.starts.byteLength + this.postings.byteLength + this.blocks.length * PAIR_BLOCK * 8
    );
  }

  /** Visits the ungrouped postings with their terms, yielding after each block. */
  private *eachPair(visit: (term: number, posting: number) => void): Generator<void> {
    for (const [b, block] of this.blocks.entries()) {
      const used = Math.min(PAIR_BLOCK, this.pairs - b * PAIR_BLOCK);
      for (let k = 0; k < used; k++) visit(block.term[k]!, block.posting[k]!);
      yield;
    }
  }

  private pushPair(term: number, posting: number): void {
    const k = this.pairs % PAIR_BLOCK;
    if (k === 0) this.blocks.push({ term: new Int32Array(PAIR_BLOCK), posting: new Uint32Array(PAIR_BLOCK) });
    const block = this.blocks[this.blocks.length - 1]!;
    block.term[k] = term;
    block.posting[k] = posting;
    this.pairs++;
  }
}

/** Per term, its chunks flat as TERM_CHUNK_STRIDE lays them out, chunks ascending (a Map of arrays has this shape too). */
export interface TermChunkLists {
  /** Terms held. */
  readonly size: number;
  /** The term's chunk list, or undefined when no chunk holds it. */
  get(term: string): readonly number[] | undefined;
  /** Every term with its chunk list (the list may be reused by the next step: copy it to keep it). */
  entries(): IterableIterator<[string, readonly number[]]>;
}

/** A session's term counts with its chunk table, as the projection reads them: each term's flat chunk list is made when asked for. */
export class TermChunks implements TermChunkLists {
  constructor(
    private readonly counts: TermCounts,
    private readonly table: ChunkTable,
  ) {}

  get size(): number {
    return this.counts.terms.count;
  }

  get(term: string): number[] | undefined {
    const id = this.counts.terms.find(term, 0, term.length);
    return id < 0 ? undefined : this.list(id, []);
  }

  *entries(): IterableIterator<[string, readonly number[]]> {
    const reused: number[] = [];
    for (let id = 0; id < this.counts.terms.count; id++) yield [this.counts.terms.text(id), this.list(id, reused)];
  }

  /** Term `id`'s chunk list written into `out` (emptied first): chunk, tf, length, message. */
  private list(id: number, out: number[]): number[] {
    out.length = 0;
    const rows = this.table.chunks;
    this.counts.forEachChunk(id, (chunk, tf) => {
      const row = chunk * CHUNK_STRIDE;
      out.push(chunk, tf, rows[row + 3]! - rows[row + 2]!, rows[row]!);
    });
    return out;
  }
}

/**
 * A chunk table held in memory, the other half of a session's counts: per chunk its message, part,
 * range and input, as sessionTerms makes it (projection/ stores it in its own form) and the warm
 * index's documents store keeps it (its chunks by Orama's internal id; no messages).
 */
export class ChunkList implements ChunkTable {
  readonly messages: ChunkMessage[] = [];
  readonly parts: ChunkPart[] = [];
  readonly chunks: number[] = [];

  message(place: number): ChunkMessage {
    return this.messages[place]!;
  }

  part(place: number): ChunkPart {
    return this.parts[place]!;
  }
}

export function chunkPart(id: string, type: HitType, tool: string | undefined): ChunkPart {
  return tool === undefined ? { id, type } : { id, type, tool };
}
