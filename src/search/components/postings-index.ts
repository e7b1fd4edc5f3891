// Orama index component: a compact inverted index, linear in document length.
// Orama's default index rescans a document's token list per token (quadratic) and holds ~25 MB
// of heap per MB of text; this one keeps per term a flat [doc, tf, doc, tf, …] list (a term seen
// in one document only is a single number), per document its length, and nothing else.
// Removal marks the document dead; the owner rebuilds when too much of the index is dead.

import type { IIndex, Tokenizer } from "@orama/orama";
import { coverageFactor, groupBit, idf, popcount, termScore } from "../bm25.ts";
import { parseQuery } from "../tokenize.ts";

const TF_BITS = 256;

export interface PostingsStore {
  /** Required by Orama's search (no vector properties here). */
  vectorIndexes: Record<string, never>;
  /** term → doc * 256 + tf (one document) or [doc, tf, doc, tf, …]. */
  dict: Map<string, number | number[]>;
  /** Document length (code units) by internal id; 0 when absent. */
  length: number[];
  alive: Uint8Array;
  liveDocs: number;
  deadDocs: number;
  liveLength: number;
  /** Posting entries stored, for the memory estimate. */
  postings: number;
  termChars: number;
}

export function createPostingsStore(): PostingsStore {
  return { vectorIndexes: {}, dict: new Map(), length: [], alive: new Uint8Array(1024), liveDocs: 0, deadDocs: 0, liveLength: 0, postings: 0, termChars: 0 };
}

/** Estimated heap bytes held by the store (calibrated against measured heap in the bench). */
export function postingsBytes(store: PostingsStore): number {
  return store.dict.size * 72 + store.termChars * 2 + store.postings * 10 + store.length.length * 12;
}

export function addDocument(store: PostingsStore, doc: number, tokens: readonly string[], length: number): void {
  const counts = new Map<string, number>();
  for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  const dict = store.dict;
  for (const [token, tf] of counts) {
    const capped = tf < TF_BITS ? tf : TF_BITS - 1;
    const entry = dict.get(token);
    if (entry === undefined) {
      dict.set(token, doc * TF_BITS + capped);
      store.termChars += token.length;
    } else if (typeof entry === "number") {
      dict.set(token, [Math.floor(entry / TF_BITS), entry % TF_BITS, doc, capped]);
    } else {
      entry.push(doc, capped);
    }
    store.postings++;
  }
  if (doc >= store.alive.length) {
    const grown = new Uint8Array(Math.max(doc + 1, store.alive.length * 2));
    grown.set(store.alive);
    store.alive = grown;
  }
  store.length[doc] = length;
  store.alive[doc] = 1;
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

/** Number of documents holding a term (dead ones included until a rebuild). */
export function documentFrequency(store: PostingsStore, token: string): number {
  const entry = store.dict.get(token);
  if (entry === undefined) return 0;
  return typeof entry === "number" ? 1 : entry.length / 2;
}

export type TokenScore = [number, number];

/** BM25 of every live document holding any query term, with query-word coverage applied. */
export function scoreQuery(store: PostingsStore, query: string): TokenScore[] {
  const parsed = parseQuery(query);
  const docs = store.liveDocs;
  if (docs === 0 || parsed.terms.length === 0) return [];
  const avg = store.liveLength / docs;
  const scores = new Map<number, number>();
  const masks = new Map<number, number>();
  const visit = (doc: number, tf: number, weight: number, bit: number): void => {
    if (store.alive[doc] !== 1) return;
    const s = termScore(tf, weight, store.length[doc]!, avg);
    scores.set(doc, (scores.get(doc) ?? 0) + s);
    masks.set(doc, (masks.get(doc) ?? 0) | bit);
  };
  for (const term of parsed.terms) {
    const entry = store.dict.get(term.token);
    if (entry === undefined) continue;
    const bit = groupBit(term.group);
    const weight = idf(docs, Math.min(docs, documentFrequency(store, term.token)));
    if (typeof entry === "number") visit(Math.floor(entry / TF_BITS), entry % TF_BITS, weight, bit);
    else for (let i = 0; i < entry.length; i += 2) visit(entry[i]!, entry[i + 1]!, weight, bit);
  }
  const out: TokenScore[] = [];
  for (const [doc, score] of scores) out.push([doc, score * coverageFactor(popcount(masks.get(doc)!), parsed.groups)]);
  return out;
}

/** The component Orama calls: insert tokenizes with our tokenizer, search scores with BM25. */
export function createPostingsIndexComponent(): IIndex<PostingsStore> {
  const unsupported = (): never => {
    throw new Error("search index is in memory only");
  };
  return {
    create: () => createPostingsStore(),
    insert(_impl, index, _prop, _id, internalId, value, _type, _language, tokenizer: Tokenizer) {
      const text = value as string;
      addDocument(index, internalId, tokenizer.tokenize(text), text.length);
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
    search: (index, term) => scoreQuery(index as unknown as PostingsStore, term),
    searchByWhereClause: () => new Set(),
    getSearchableProperties: () => ["text"],
    getSearchablePropertiesWithTypes: () => ({ text: "string" }),
    load: unsupported,
    save: unsupported,
  };
}
