// The inverted index's data, all in typed arrays: a packed term dictionary (TermTable) and, per
// term, its postings (doc × 256 + tf, one uint32 each). A term's first posting sits in a per-term
// array (most terms occur in one document); the rest go in blocks of a shared pool, chained, each
// twice the size of the one before (up to 256). Per document: length and alive flag. Removal
// marks a document dead; the owner rebuilds when too much of the index is dead.

import type { TokenSpans } from "../../text/tokenize.ts";
import { copyPrefix, trimmedLength } from "./copy-steps.ts";
import { TermTable } from "./term-table.ts";
import { grown } from "../../../util/grow.ts";

const TF_MAX = 255;

export interface PostingsStore {
  terms: TermTable;
  /** Per term: first posting; offset in `pool` of its first block and of its last posting (0 = the first). */
  first: Uint32Array;
  head: Int32Array;
  last: Int32Array;
  /** Blocks of postings, each ending in a link word; offset 0 is never a block. */
  pool: Uint32Array;
  poolTop: number;
  /** Per document (internal id): length in code units, alive flag. */
  length: Int32Array;
  alive: Uint8Array;
  /** One past the highest document id added. */
  docsEnd: number;
  liveDocs: number;
  deadDocs: number;
  liveLength: number;
}

export function createPostingsStore(): PostingsStore {
  return {
    terms: new TermTable(),
    first: new Uint32Array(1024),
    head: new Int32Array(1024),
    last: new Int32Array(1024),
    pool: new Uint32Array(1 << 14),
    poolTop: 1,
    length: new Int32Array(256),
    alive: new Uint8Array(256),
    docsEnd: 0,
    liveDocs: 0,
    deadDocs: 0,
    liveLength: 0,
  };
}

/** Heap bytes held by the store's arrays (exact: typed arrays are the whole store). */
export function postingsBytes(store: PostingsStore): number {
  return (
    store.terms.bytes() +
    store.first.byteLength +
    store.head.byteLength +
    store.last.byteLength +
    store.pool.byteLength +
    store.length.byteLength +
    store.alive.byteLength
  );
}

function ensureTerms(store: PostingsStore, need: number): void {
  if (need <= store.first.length) return;
  store.first = grown(store.first, need);
  store.head = grown(store.head, need);
  store.last = grown(store.last, need);
}

function ensureDocs(store: PostingsStore, doc: number): void {
  if (doc < store.length.length) return;
  store.length = grown(store.length, doc + 1);
  // The same doubling from the same length: the two columns stay as long as each other.
  store.alive = grown(store.alive, store.length.length);
}

// A block is `capacity` posting slots then one link word: LINK | log2(capacity) << 26 | next
// block's offset (0 = none yet). Postings never have the top bit set (doc < 2^23) and are never
// 0 (tf ≥ 1), so a 0 is a free slot and a LINK word is a block's end.
const LINK = 0x80000000;
const NEXT_MASK = 0x3ffffff;
const FIRST_LOG = 1;
const MAX_LOG = 8;

function addPosting(store: PostingsStore, term: number, isNew: boolean, doc: number): void {
  const packed = doc * 256 + 1;
  if (isNew) {
    store.first[term] = packed;
    return;
  }
  const lastAt = store.last[term]!;
  const pool = store.pool;
  const current = lastAt === 0 ? store.first[term]! : pool[lastAt]!;
  if (current >>> 8 === doc) {
    if ((current & 0xff) < TF_MAX) {
      if (lastAt === 0) store.first[term] = current + 1;
      else pool[lastAt] = current + 1;
    }
    return;
  }
  if (lastAt !== 0 && pool[lastAt + 1] === 0) {
    pool[lastAt + 1] = packed;
    store.last[term] = lastAt + 1;
    return;
  }
  // A new block, twice the size of the one before (capped); linked from the full block's end.
  const log = lastAt === 0 ? FIRST_LOG : Math.min(MAX_LOG, ((pool[lastAt + 1]! >>> 26) & 0x1f) + 1);
  const capacity = 1 << log;
  const block = store.poolTop;
  if (block + capacity + 1 > store.pool.length) store.pool = grown(store.pool, block + capacity + 1);
  const target = store.pool;
  store.poolTop = block + capacity + 1;
  target[block] = packed;
  target[block + capacity] = (LINK | (log << 26)) >>> 0;
  if (lastAt === 0) store.head[term] = block;
  else target[lastAt + 1] = (target[lastAt + 1]! | block) >>> 0;
  store.last[term] = block;
}

/** Calls visit(doc, tf) for every posting of a term, in insertion order. */
export function forEachPosting(store: PostingsStore, term: number, visit: (doc: number, tf: number) => void): void {
  const firstPacked = store.first[term]!;
  visit(firstPacked >>> 8, firstPacked & 0xff);
  if (store.last[term] === 0) return;
  const pool = store.pool;
  let at = store.head[term]!;
  for (;;) {
    const word = pool[at]!;
    if (word === 0) return;
    if (word >= LINK) {
      at = word & NEXT_MASK;
      if (at === 0) return;
      continue;
    }
    visit(word >>> 8, word & 0xff);
    at++;
  }
}

/** Postings stored for a term (dead documents included until a rebuild). */
export function countPostings(store: PostingsStore, term: number): number {
  let count = 1;
  if (store.last[term] === 0) return count;
  const pool = store.pool;
  let at = store.head[term]!;
  for (;;) {
    const word = pool[at]!;
    if (word === 0) return count;
    if (word >= LINK) {
      at = word & NEXT_MASK;
      if (at === 0) return count;
      continue;
    }
    count++;
    at++;
  }
}

/**
 * Adds `times` occurrences of each of `spans`' terms (over `folded`) that start before `before` to
 * a document's postings; on a document added already (its length unchanged), a heavier field's
 * terms (a tool call's input) count more.
 */
export function addOccurrences(store: PostingsStore, doc: number, folded: string, spans: TokenSpans, times: number, before = Infinity): void {
  const data = spans.data;
  const terms = store.terms;
  // Spans come in order of their start.
  for (let i = 0; i < spans.size && data[i]! < before; i += 2) {
    const before = terms.count;
    const term = terms.intern(folded, data[i]!, data[i + 1]!);
    const isNew = term === before;
    if (isNew) {
      ensureTerms(store, term + 1);
      store.last[term] = 0;
      store.head[term] = 0;
    }
    for (let k = 0; k < times; k++) addPosting(store, term, isNew && k === 0, doc);
  }
}

/**
 * Adds a document's postings: `spans` are its token spans over `folded` (its folded text, as the
 * tokenizer component gives them); `length` is the text's length in code units.
 */
export function addDocument(store: PostingsStore, doc: number, folded: string, spans: TokenSpans, length: number): void {
  ensureDocs(store, doc);
  addOccurrences(store, doc, folded, spans, 1);
  store.length[doc] = length;
  store.alive[doc] = 1;
  if (doc >= store.docsEnd) store.docsEnd = doc + 1;
  store.liveDocs++;
  store.liveLength += length;
}

export function removeDocument(store: PostingsStore, doc: number): void {
  if (store.alive[doc] !== 1) return;
  store.alive[doc] = 0;
  store.liveDocs--;
  store.deadDocs++;
  store.liveLength -= store.length[doc] ?? 0;
}

/**
 * Drops growth headroom once a build is done, a piece per step (copy-steps.ts), keeping an eighth
 * for appends. Nothing may add to the store until the steps end.
 */
export function* trimSteps(store: PostingsStore): Generator<void> {
  yield* store.terms.trimSteps();
  const terms = trimmedLength(store.terms.count, 64);
  store.first = yield* copyPrefix(store.first, terms);
  store.head = yield* copyPrefix(store.head, terms);
  store.last = yield* copyPrefix(store.last, terms);
  store.pool = yield* copyPrefix(store.pool, trimmedLength(store.poolTop, 1024));
}
