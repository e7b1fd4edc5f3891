// Per term of one session, the chunks holding it, counted the way the projection needs them and
// no heavier: terms are interned from spans of folded text (the index's TermTable: no string per
// token), each chunk's (term, tf) pairs go into typed arrays, and when counting ends the pairs
// are grouped by term in one counting sort. A term's flat chunk list (TERM_CHUNK_STRIDE) is made
// only when asked for. Counting a 30 MB session this way instead of in a Map of number arrays per
// term took a fraction of the time and heap (docs/search-notes.md, "Counting a session for the
// projection").

import { TermTable } from "../index/components/term-table.ts";
import type { TokenSpans } from "../text/tokenize.ts";
import { CHUNK_STRIDE, type ChunkTable } from "../types.ts";
import { grown } from "../../util/grow.ts";

/** Per term, its chunks flat as TERM_CHUNK_STRIDE lays them out, chunks ascending (a Map of arrays has this shape too). */
export interface TermChunkLists {
  /** Terms held. */
  readonly size: number;
  /** The term's chunk list, or undefined when no chunk holds it. */
  get(term: string): readonly number[] | undefined;
  /** Every term with its chunk list (the list may be reused by the next step: copy it to keep it). */
  entries(): IterableIterator<[string, readonly number[]]>;
}

/** Pairs per block of TermChunkCounter's: 1 MB a block. */
const PAIR_BLOCK = 1 << 16;

interface PairBlock {
  term: Int32Array;
  chunk: Int32Array;
  tf: Float64Array;
}

/** Counts chunks' terms one chunk at a time (chunks in ascending order); `done` groups them. */
export class TermChunkCounter {
  private readonly table = new TermTable();
  /** Per term id: this chunk's weighted frequency, and the chunk it was last seen in (+1, 0: none). */
  private tf = new Float64Array(1024);
  private seenIn = new Int32Array(1024);
  private readonly touched: number[] = [];
  /**
   * The (term, chunk, tf) triples, in the order chunks were counted, in blocks of PAIR_BLOCK: a
   * growing array copied at each doubling cost a 30 MB session a quarter of a second and its
   * peak twice the pairs' size.
   */
  private readonly blocks: PairBlock[] = [];
  private pairs = 0;

  /**
   * Adds chunk `chunk`'s terms: `spans` over `folded`, a span starting before `weighted` counted
   * `weight` times (a call's input), the others once.
   */
  add(chunk: number, folded: string, spans: TokenSpans, weighted: number, weight: number): void {
    const data = spans.data;
    const mark = chunk + 1;
    for (let i = 0; i < spans.size; i += 2) {
      const id = this.table.intern(folded, data[i]!, data[i + 1]!);
      if (id >= this.tf.length) this.growTerms();
      const times = data[i]! < weighted ? weight : 1;
      if (this.seenIn[id] !== mark) {
        this.seenIn[id] = mark;
        this.tf[id] = times;
        this.touched.push(id);
      } else this.tf[id] = this.tf[id]! + times;
    }
    for (const id of this.touched) this.pushPair(id, chunk, this.tf[id]!);
    this.touched.length = 0;
  }

  /** The pairs grouped by term (chunks ascending within each, as counted); the counter is spent. */
  done(table: ChunkTable): TermChunks {
    const terms = this.table.count;
    const starts = new Int32Array(terms + 1);
    this.eachPair((term) => starts[term + 1]!++);
    for (let t = 0; t < terms; t++) starts[t + 1]! += starts[t]!;
    const fill = starts.slice(0, terms);
    const chunks = new Int32Array(this.pairs);
    const tfs = new Float64Array(this.pairs);
    this.eachPair((term, chunk, tf) => {
      const at = fill[term]!++;
      chunks[at] = chunk;
      tfs[at] = tf;
    });
    this.blocks.length = 0;
    return new TermChunks(this.table, starts, chunks, tfs, table);
  }

  private eachPair(visit: (term: number, chunk: number, tf: number) => void): void {
    for (const [b, block] of this.blocks.entries()) {
      const used = Math.min(PAIR_BLOCK, this.pairs - b * PAIR_BLOCK);
      for (let k = 0; k < used; k++) visit(block.term[k]!, block.chunk[k]!, block.tf[k]!);
    }
  }

  private pushPair(term: number, chunk: number, tf: number): void {
    const k = this.pairs % PAIR_BLOCK;
    if (k === 0) this.blocks.push({ term: new Int32Array(PAIR_BLOCK), chunk: new Int32Array(PAIR_BLOCK), tf: new Float64Array(PAIR_BLOCK) });
    const block = this.blocks[this.blocks.length - 1]!;
    block.term[k] = term;
    block.chunk[k] = chunk;
    block.tf[k] = tf;
    this.pairs++;
  }

  private growTerms(): void {
    this.tf = grown(this.tf, this.tf.length + 1);
    this.seenIn = grown(this.seenIn, this.seenIn.length + 1);
  }
}

/** A session's terms and, per term, its chunks: TermChunkCounter's result. */
export class TermChunks implements TermChunkLists {
  constructor(
    private readonly table: TermTable,
    /** Per term id, where its chunks start in `chunks`/`tfs` (one more entry: the end). */
    private readonly starts: Int32Array,
    private readonly chunks: Int32Array,
    private readonly tfs: Float64Array,
    private readonly chunkTable: ChunkTable,
  ) {}

  get size(): number {
    return this.table.count;
  }

  get(term: string): number[] | undefined {
    const id = this.table.find(term, 0, term.length);
    return id < 0 ? undefined : this.list(id, []);
  }

  *entries(): IterableIterator<[string, readonly number[]]> {
    const reused: number[] = [];
    for (let id = 0; id < this.table.count; id++) yield [this.table.text(id), this.list(id, reused)];
  }

  /** Term `id`'s chunk list written into `out` (emptied first). */
  private list(id: number, out: number[]): number[] {
    out.length = 0;
    const table = this.chunkTable.chunks;
    for (let at = this.starts[id]!; at < this.starts[id + 1]!; at++) {
      const chunk = this.chunks[at]!;
      const row = chunk * CHUNK_STRIDE;
      out.push(chunk, this.tfs[at]!, table[row + 3]! - table[row + 2]!, table[row]!);
    }
    return out;
  }
}
