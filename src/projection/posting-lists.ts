// Per term, a list of bytes appended to, all in one arena: a segment buffered in memory keeps its
// postings here already encoded (postings-blob.ts's layout, sessions by their place in the
// buffer), rather than as a JS array per term of numbers per posting: the schema-6 buffer held
// some 13 numbers of 8 bytes per posting plus an array per term, and the build's heap doubled.
// A term's bytes sit in a chain of blocks of growing size, so a term held by one session costs
// one small block and a common one few large ones; six Int32 values a term say where they are.

import { ByteWriter, writeBody } from "./postings-blob.ts";
import { grown } from "../util/grow.ts";

/** A term's first block holds FIRST_BLOCK bytes, each next one twice its previous, up to MAX_BLOCK. */
const FIRST_BLOCK = 12;
const MAX_BLOCK = 4096;
/** Bytes before a block's content: the arena offset of the next block (0: none yet). */
const HEADER = 4;
/** Int32 values per term: first block, last block, bytes used of the last, its index in the chain, total bytes, last place. */
const STRIDE = 6;
const HEAD = 0;
const TAIL = 1;
const FILL = 2;
const INDEX = 3;
const SIZE = 4;
const LAST = 5;

const blockBytes = (index: number) => Math.min(FIRST_BLOCK << Math.min(index, 12), MAX_BLOCK);

export class PostingLists {
  private readonly ids = new Map<string, number>();
  private meta = new Int32Array(STRIDE * 1024);
  private arena = new Uint8Array(1 << 16);
  /** Offset 0 is never a block's, so 0 means none. */
  private used = HEADER;
  private readonly scratch = new ByteWriter();

  /** Terms held. */
  get size(): number {
    return this.ids.size;
  }

  /** Appends a posting of `term`: `place` (ascending per term), its chunks, flat as TERM_CHUNK_STRIDE lays them out, ascending, and its ceiling. */
  add(term: string, place: number, chunks: readonly number[], ceiling: number): void {
    let id = this.ids.get(term);
    if (id === undefined) id = this.start(term);
    const at = id * STRIDE;
    const scratch = this.scratch;
    scratch.length = 0;
    scratch.varint(place - this.meta[at + LAST]!);
    writeBody(scratch, chunks, ceiling);
    this.meta[at + LAST] = place;
    this.append(at, scratch.bytes, scratch.length);
  }

  /**
   * Each term with its bytes (the places' gaps, the first from 0, and bodies, as postings-blob.ts
   * reads them), in term order: rows written in key order fill the file's pages (in the order
   * the terms came, a page of the table was two thirds full on average).
   */
  *entries(): IterableIterator<[string, Uint8Array]> {
    for (const term of [...this.ids.keys()].sort()) yield [term, this.read(this.ids.get(term)! * STRIDE)];
  }

  clear(): void {
    this.ids.clear();
    this.used = HEADER;
    // Large arenas from one big buffer are not kept for good.
    if (this.arena.length > 1 << 24) this.arena = new Uint8Array(1 << 16);
    if (this.meta.length > STRIDE * (1 << 18)) this.meta = new Int32Array(STRIDE * 1024);
  }

  private start(term: string): number {
    const id = this.ids.size;
    this.ids.set(term, id);
    if ((id + 1) * STRIDE > this.meta.length) this.meta = grown(this.meta, (id + 1) * STRIDE);
    const at = id * STRIDE;
    const block = this.block(0);
    const meta = this.meta;
    meta[at + HEAD] = block;
    meta[at + TAIL] = block;
    meta[at + FILL] = 0;
    meta[at + INDEX] = 0;
    meta[at + SIZE] = 0;
    meta[at + LAST] = 0;
    return id;
  }

  private block(index: number): number {
    const size = HEADER + blockBytes(index);
    if (this.used + size > this.arena.length) this.arena = grown(this.arena, this.used + size);
    const at = this.used;
    this.arena.fill(0, at, at + HEADER);
    this.used += size;
    return at;
  }

  private append(at: number, from: Uint8Array, length: number): void {
    const meta = this.meta;
    let done = 0;
    while (done < length) {
      let room = blockBytes(meta[at + INDEX]!) - meta[at + FILL]!;
      if (room === 0) {
        const next = this.block(meta[at + INDEX]! + 1);
        new DataView(this.arena.buffer).setInt32(meta[at + TAIL]!, next, true);
        meta[at + TAIL] = next;
        meta[at + FILL] = 0;
        const index = meta[at + INDEX]! + 1;
        meta[at + INDEX] = index;
        room = blockBytes(index);
      }
      const piece = Math.min(room, length - done);
      // Pieces are a few bytes: a loop costs less than a subarray and a set.
      const arena = this.arena;
      const to = meta[at + TAIL]! + HEADER + meta[at + FILL]!;
      for (let k = 0; k < piece; k++) arena[to + k] = from[done + k]!;
      meta[at + FILL] = meta[at + FILL]! + piece;
      done += piece;
    }
    meta[at + SIZE] = meta[at + SIZE]! + length;
  }

  private read(at: number): Uint8Array {
    const size = this.meta[at + SIZE]!;
    const out = new Uint8Array(size);
    const view = new DataView(this.arena.buffer);
    let block = this.meta[at + HEAD]!;
    for (let done = 0, index = 0; done < size; index++) {
      const piece = Math.min(blockBytes(index), size - done);
      out.set(this.arena.subarray(block + HEADER, block + HEADER + piece), done);
      done += piece;
      block = view.getInt32(block, true);
    }
    return out;
  }
}
