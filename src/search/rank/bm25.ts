// BM25 over documents (part chunks), shared by the cold scan and the index so both rank alike.
// Document length is counted in UTF-16 code units: the scan knows it without tokenizing.

// k1, b and the coverage floor are the tuning's (tuning.ts), passed in with the ranking's other constants.

import type { SearchTuning } from "../tuning.ts";

function idf(docs: number, df: number): number {
  return Math.log(1 + (docs - df + 0.5) / (df + 0.5));
}

/** A term's count in one document counts up to this: the index packs counts in a byte (index/components/postings.ts). */
export const MAX_COUNTED_TF = 255;

export function termScore(tf: number, idfValue: number, length: number, avgLength: number, tuning: SearchTuning): number {
  const { k1, b } = tuning.bm25;
  const norm = k1 * (1 - b + (b * length) / (avgLength || 1));
  return (idfValue * tf * (k1 + 1)) / (tf + norm);
}

/**
 * Query words covered by a document scale its score: all words ×1, none × the floor. Words count
 * alike: weighing them by idf here lowered the real-session eval (the rarest word of a paraphrased
 * question is often one the answer lacks); BM25 weighs terms by idf already.
 */
export function coverageFactor(groupsMatched: number, groups: number, tuning: SearchTuning): number {
  const coverage = tuning.coverage;
  if (groups <= 1 || !coverage.on) return 1;
  return coverage.floor + (1 - coverage.floor) * (groupsMatched / groups);
}

function popcount(mask: number): number {
  let m = mask - ((mask >>> 1) & 0x55555555);
  m = (m & 0x33333333) + ((m >>> 2) & 0x33333333);
  return (((m + (m >>> 4)) & 0xf0f0f0f) * 0x1010101) >>> 24;
}

/** Bit of a query word in a coverage mask (words past 30 share bit 30). */
export function groupBit(group: number): number {
  return 1 << Math.min(group, 30);
}

/** The query words a coverage mask holds. */
export function wordsMatched(mask: number): number {
  return popcount(mask);
}

/**
 * What BM25 needs to know of the documents it ranks: their number and total length, and how many
 * hold each query term (same order as the query's terms). Project scope adds those of every
 * session it searched, so all sessions are scored against one collection.
 */
export interface CollectionStats {
  docs: number;
  length: number;
  df: number[];
}

export function emptyStats(terms: number): CollectionStats {
  return { docs: 0, length: 0, df: new Array<number>(terms).fill(0) };
}

export function addStats(into: CollectionStats, from: CollectionStats): void {
  into.docs += from.docs;
  into.length += from.length;
  for (let t = 0; t < into.df.length; t++) into.df[t] = into.df[t]! + (from.df[t] ?? 0);
}

/** What scoring a document needs of the query against one collection's statistics. */
export interface QueryWeights {
  /** Each term's idf times its weight within its word. */
  idfs: number[];
  groupOf: number[];
  /**
   * Query words coverage counts: those the collection holds a term of. A word found nowhere (a
   * typo, a name from another project) tells no document from another: counting it only
   * flattened the coverage of the words that are found.
   */
  words: number;
  tuning: SearchTuning;
}

export function queryWeights(stats: CollectionStats, terms: readonly { weight: number; group: number }[], tuning: SearchTuning): QueryWeights {
  const idfs = stats.df.map((df, t) => idf(stats.docs, Math.min(df, stats.docs)) * terms[t]!.weight);
  return { idfs, groupOf: terms.map((term) => term.group), words: wordsFound(stats.df, terms, tuning), tuning };
}

/** QueryWeights.words of a collection whose documents hold the terms `df` says. */
export function wordsFound(df: readonly number[], terms: readonly { group: number }[], tuning: SearchTuning): number {
  let found = 0;
  const foundOnly = tuning.coverage.foundWordsOnly;
  for (let t = 0; t < terms.length; t++) if (!foundOnly || df[t]! > 0) found |= groupBit(terms[t]!.group);
  return wordsMatched(found);
}

/** BM25 × coverage of one document from its per-term counts (tf 0 = absent). */
export function scoreCounts(tfs: readonly number[], length: number, weights: QueryWeights, avgLength: number): number {
  let score = 0;
  let mask = 0;
  const { idfs, groupOf, tuning } = weights;
  for (let t = 0; t < tfs.length; t++) {
    const tf = tfs[t]!;
    if (tf === 0) continue;
    score += termScore(Math.min(tf, MAX_COUNTED_TF), idfs[t]!, length, avgLength, tuning);
    mask |= groupBit(groupOf[t]!);
  }
  return score * coverageFactor(wordsMatched(mask), weights.words, tuning);
}
