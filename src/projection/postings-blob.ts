// One term's postings in one segment as a blob. Per session holding the term: its number (the gap
// from the previous one), the documents (chunks) holding the term, the term's ceiling there (the
// most one of its messages scores from it: search's termCeiling, in 1/CEILING_SCALE, rounded up),
// the bytes of its chunks, then per such chunk its place in the session (the gap from the
// previous one), the term's weighted frequency there, the chunk's length and its message's place
// (the gap from the previous chunk's); every value an unsigned LEB128 varint. A session's posting
// is then a few bytes, and its chunks about five more each; a search passes over the chunks of
// the sessions whose ceiling cannot place without reading them. A posting's body (all but its
// number) never depends on the session's number, so writes and merges renumber postings by
// copying bodies, never decoding them.

import { TERM_CHUNK_STRIDE } from "../search/projection-contract.ts";
import { grown } from "../util/grow.ts";

/** A ceiling is stored as a whole number of 1/CEILING_SCALE, rounded up (it stays a ceiling). */
export const CEILING_SCALE = 1024;

/** Bytes appended at the end, grown by doubling. */
export class ByteWriter {
  bytes: Uint8Array;
  length = 0;

  constructor(capacity = 64) {
    this.bytes = new Uint8Array(capacity);
  }

  varint(value: number): void {
    this.room(10);
    const bytes = this.bytes;
    let at = this.length;
    while (value >= 0x80) {
      bytes[at++] = (value & 0x7f) | 0x80;
      value = Math.floor(value / 0x80);
    }
    bytes[at++] = value;
    this.length = at;
  }

  append(from: Uint8Array, start: number, end: number): void {
    this.room(end - start);
    this.bytes.set(from.subarray(start, end), this.length);
    this.length += end - start;
  }

  /** A copy of what was written. */
  take(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }

  private room(more: number): void {
    if (this.length + more > this.bytes.length) this.bytes = grown(this.bytes, this.length + more);
  }
}

/** Reads varints from a blob, from `at` on. */
export class VarintReader {
  constructor(
    readonly blob: Uint8Array,
    public at = 0,
  ) {}

  next(): number {
    const blob = this.blob;
    if (this.at >= blob.length) throw new Error("postings blob cut short");
    let byte = blob[this.at++]!;
    if (byte < 0x80) return byte;
    let value = byte & 0x7f;
    let scale = 0x80;
    for (;;) {
      if (this.at >= blob.length) throw new Error("postings blob cut short");
      byte = blob[this.at++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }

  /** Passes over `count` varints; a blob cut short throws (a damaged file is rebuilt, never read past its end). */
  skip(count: number): void {
    const blob = this.blob;
    let at = this.at;
    for (let left = count; left > 0; at++) {
      if (at >= blob.length) throw new Error("postings blob cut short");
      if (blob[at]! < 0x80) left--;
    }
    this.at = at;
  }
}

/**
 * Writes one posting's body: df, the ceiling, the chunks' bytes, then per chunk (ascending) its
 * gap, tf, length and message gap; `chunks` flat as TERM_CHUNK_STRIDE lays them out.
 */
export function writeBody(out: ByteWriter, chunks: readonly number[], ceiling: number): void {
  if (chunks.length % TERM_CHUNK_STRIDE !== 0) throw new Error(`a posting's chunks come ${TERM_CHUNK_STRIDE} values each (got ${chunks.length})`);
  if (!(ceiling >= 0)) throw new Error(`a posting's ceiling is a number not below 0 (got ${ceiling})`);
  let bytes = 0;
  forEachChunkValue(chunks, (value) => {
    bytes += varintBytes(value);
  });
  out.varint(chunks.length / TERM_CHUNK_STRIDE);
  out.varint(Math.ceil(ceiling * CEILING_SCALE));
  out.varint(bytes);
  forEachChunkValue(chunks, (value) => out.varint(value));
}

/** The values a posting stores of its chunks, in order (gaps where they are gaps); throws on chunks out of order. */
function forEachChunkValue(chunks: readonly number[], visit: (value: number) => void): void {
  let previous = 0;
  let message = 0;
  for (let i = 0; i < chunks.length; i += TERM_CHUNK_STRIDE) {
    const chunk = chunks[i]!;
    const at = chunks[i + 3]!;
    if (chunk < previous || at < message) throw new Error(`chunks out of order: ${chunk} after ${previous}`);
    visit(chunk - previous);
    visit(chunks[i + 1]!);
    visit(chunks[i + 2]!);
    visit(at - message);
    previous = chunk;
    message = at;
  }
}

function varintBytes(value: number): number {
  let bytes = 1;
  for (; value >= 0x80; bytes++) value = Math.floor(value / 0x80);
  return bytes;
}

/** Calls visit(number, start, end) for every posting of a blob, in order: its body is blob[start, end). */
export function scanPostings(blob: Uint8Array, visit: (no: number, start: number, end: number) => void): void {
  const reader = new VarintReader(blob);
  let no = 0;
  while (reader.at < blob.length) {
    no += reader.next();
    const start = reader.at;
    reader.skip(2);
    passChunks(reader);
    visit(no, start, reader.at);
  }
}

/** Calls visit(number, df) for every posting of a blob, in order, passing over its chunks. */
export function decodeDocuments(blob: Uint8Array, visit: (no: number, df: number) => void): void {
  const reader = new VarintReader(blob);
  let no = 0;
  while (reader.at < blob.length) {
    no += reader.next();
    const df = reader.next();
    reader.skip(1);
    passChunks(reader);
    visit(no, df);
  }
}

/**
 * Calls visit(number, df, ceiling, chunksAt) for every posting of a blob, in order, passing over
 * its chunks: decodeChunks(blob, chunksAt, df) reads them.
 */
export function decodeHeads(blob: Uint8Array, visit: (no: number, df: number, ceiling: number, chunksAt: number) => void): void {
  const reader = new VarintReader(blob);
  let no = 0;
  while (reader.at < blob.length) {
    no += reader.next();
    const df = reader.next();
    const ceiling = reader.next() / CEILING_SCALE;
    visit(no, df, ceiling, passChunks(reader));
  }
}

/** A posting's `df` chunks from `at` (decodeHeads' chunksAt), flat as TERM_CHUNK_STRIDE lays them out, in an array of its own. */
export function decodeChunks(blob: Uint8Array, at: number, df: number): number[] {
  const reader = new VarintReader(blob, at);
  const chunks: number[] = [];
  let chunk = 0;
  let message = 0;
  for (let c = 0; c < df; c++) {
    chunk += reader.next();
    const tf = reader.next();
    const length = reader.next();
    message += reader.next();
    chunks.push(chunk, tf, length, message);
  }
  return chunks;
}

/** Moves past a posting's chunks, its byte count read first (a count past the blob's end throws); where they start. */
function passChunks(reader: VarintReader): number {
  const bytes = reader.next();
  const at = reader.at;
  if (at + bytes > reader.blob.length) throw new Error("postings blob cut short");
  reader.at += bytes;
  return at;
}

/** Postings with their bodies copied from other blobs, renumbered: numbers must be given ascending. */
export class PostingsWriter {
  private readonly out = new ByteWriter();
  private previous = 0;
  count = 0;

  add(no: number, from: Uint8Array, start: number, end: number): void {
    if (no < this.previous || (no === this.previous && this.count > 0)) throw new Error(`postings out of order: ${no} after ${this.previous}`);
    this.out.varint(no - this.previous);
    this.out.append(from, start, end);
    this.previous = no;
    this.count++;
  }

  take(): Uint8Array {
    return this.out.take();
  }
}
