// Orama index component over the packed postings (postings.ts): insert tokenizes with our
// tokenizer straight into typed arrays; search scores BM25 × query-word coverage in typed-array
// accumulators and, when the owner says how results are ranked (a SearchRequest), hands Orama
// only the documents of the best messages instead of every match, so Orama sorts and
// materialises a few dozen hits rather than thousands.

import type { IIndex } from "@orama/orama";
import { coverageFactor, groupBit, idf, popcount, termScore } from "../../rank/bm25.ts";
import { OTHER_CHUNKS_COUNTED, OTHER_CHUNKS_SHARE, selectBest } from "../../rank/rank.ts";
import { parseQuery } from "../../text/tokenize.ts";
import { addDocument, countPostings, createPostingsStore, forEachPosting, removeDocument, type PostingsStore } from "./postings.ts";

export { postingsBytes, removeDocument, trimStore, type PostingsStore } from "./postings.ts";


export interface SearchRequest {
  /** Whether a document (internal id) may be returned. */
  accept(doc: number): boolean;
  /** How many of the best messages to return (every accepted document of each). */
  messages: number;
  /** Order of two messages (slots) whose scores tie: negative when `a` goes first. */
  tieBreak(a: number, b: number): number;
}

export type TokenScore = [number, number];

interface Scratch {
  score: Float64Array;
  mask: Int32Array;
  touched: Int32Array;
}

const scratchByStore = new WeakMap<PostingsStore, Scratch>();

function scratchFor(store: PostingsStore): Scratch {
  const size = store.length.length;
  let scratch = scratchByStore.get(store);
  if (!scratch || scratch.score.length < size) {
    scratch = { score: new Float64Array(size), mask: new Int32Array(size), touched: new Int32Array(size) };
    scratchByStore.set(store, scratch);
  }
  return scratch;
}

/**
 * Live documents holding a term. Removed (and replaced) documents stay in the postings until a
 * rebuild: counting them would skew idf away from what a fresh build (and the scan) gives.
 */
function liveDocFrequency(store: PostingsStore, term: number): number {
  if (store.deadDocs === 0) return countPostings(store, term);
  const alive = store.alive;
  let count = 0;
  forEachPosting(store, term, (doc) => {
    if (alive[doc] === 1) count++;
  });
  return count;
}

/** Live documents holding any query term and their scores: touched[0, n) with score/mask. */
function accumulate(store: PostingsStore, query: string): { scratch: Scratch; n: number; groups: number } {
  const parsed = parseQuery(query);
  const scratch = scratchFor(store);
  const { score, mask, touched } = scratch;
  let n = 0;
  const docs = store.liveDocs;
  if (docs === 0) return { scratch, n, groups: parsed.groups };
  const avg = store.liveLength / docs;
  const alive = store.alive;
  const length = store.length;
  for (const term of parsed.terms) {
    const id = store.terms.find(term.token, 0, term.token.length);
    if (id < 0) continue;
    const bit = groupBit(term.group);
    const weight = idf(docs, Math.min(docs, liveDocFrequency(store, id))) * term.weight;
    forEachPosting(store, id, (doc, tf) => {
      if (alive[doc] !== 1) return;
      const s = termScore(tf, weight, length[doc]!, avg);
      if (mask[doc] === 0) {
        touched[n++] = doc;
        score[doc] = s;
        mask[doc] = bit;
      } else {
        score[doc] = score[doc]! + s;
        mask[doc] = mask[doc]! | bit;
      }
    });
  }
  return { scratch, n, groups: parsed.groups };
}

/** BM25 × coverage of every live document holding any query term (no request: all of them). */
export function scoreQuery(store: PostingsStore, query: string, request?: SearchRequest): TokenScore[] {
  const { scratch, n, groups } = accumulate(store, query);
  const { score, mask, touched } = scratch;
  const out: TokenScore[] = [];
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const doc = touched[i]!;
    const final = score[doc]! * coverageFactor(popcount(mask[doc]!), groups);
    mask[doc] = 0;
    if (request && !request.accept(doc)) continue;
    score[doc] = final;
    touched[kept++] = doc;
    if (!request) out.push([doc, final]);
  }
  if (!request) return out;
  return bestMessages(store, scratch, kept, request);
}

/** Documents of the `request.messages` best messages, each message scored as rank.ts does. */
function bestMessages(store: PostingsStore, scratch: Scratch, n: number, request: SearchRequest): TokenScore[] {
  const { score, touched } = scratch;
  // Group documents by message: sort touched by message slot, then by score (best first).
  const docs = Array.from(touched.subarray(0, n));
  const message = store.message;
  docs.sort((a, b) => message[a]! - message[b]! || score[b]! - score[a]!);
  const groups: Array<{ slot: number; from: number; to: number; score: number }> = [];
  for (let i = 0; i < docs.length; ) {
    const slot = message[docs[i]!]!;
    let j = i + 1;
    while (j < docs.length && message[docs[j]!] === slot) j++;
    let total = score[docs[i]!]!;
    for (let k = i + 1; k < j && k - i <= OTHER_CHUNKS_COUNTED; k++) total += OTHER_CHUNKS_SHARE * score[docs[k]!]!;
    groups.push({ slot, from: i, to: j, score: total });
    i = j;
  }
  const compare = (a: (typeof groups)[number], b: (typeof groups)[number]): number => {
    if (Math.abs(a.score - b.score) > 1e-9 * Math.max(1, Math.abs(a.score))) return b.score - a.score;
    return request.tieBreak(a.slot, b.slot);
  };
  const best = selectBest(groups, request.messages, compare);
  const out: TokenScore[] = [];
  for (const group of best) for (let k = group.from; k < group.to; k++) out.push([docs[k]!, score[docs[k]!]!]);
  return out;
}

/** The component Orama calls. The owner sets `request` on the store around a search. */
export function createPostingsIndexComponent(): IIndex<PostingsStore & { request?: SearchRequest }> {
  const unsupported = (): never => {
    throw new Error("search index is in memory only");
  };
  return {
    create: () => createPostingsStore(),
    insert(_impl, index, _prop, _id, internalId, value) {
      addDocument(index, internalId, value as string, index.nextMessage);
    },
    remove(_impl, index, _prop, _id, internalId) {
      removeDocument(index, internalId);
      return true;
    },
    insertDocumentScoreParameters: () => {},
    insertTokenScoreParameters: () => {},
    removeDocumentScoreParameters: () => {},
    removeTokenScoreParameters: () => {},
    calculateResultScores: () => {},
    search: (index, term) => {
      const store = index as unknown as PostingsStore & { request?: SearchRequest };
      return scoreQuery(store, term, store.request);
    },
    searchByWhereClause: () => new Set(),
    getSearchableProperties: () => ["text"],
    getSearchablePropertiesWithTypes: () => ({ text: "string" }),
    load: unsupported,
    save: unsupported,
  };
}
