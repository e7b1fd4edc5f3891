// BM25F over documents (part chunks), shared by the cold scan and the index so both rank alike.
// A chunk's fields (text/documents.ts FIELDS: its body, and a tool call's input beside a tool's
// output) each weigh their counts and normalise their length against their own average, and
// the sum is saturated once per term (Robertson and Zaragoza's BM25F). Lengths are counted in
// UTF-16 code units: the scan knows them without tokenizing.

// k1, the fields' weights and b, and the coverage floor are in tuning.ts.

import { FIELD_COUNT, FIELDS, INPUT_FIELD } from "../text/documents.ts";
import { TUNING } from "../tuning.ts";

function idf(docs: number, df: number): number {
  return Math.log(1 + (docs - df + 0.5) / (df + 0.5));
}

/** Per field (FIELDS order): its weight, its length normalisation b and its average length in a collection. */
export interface FieldNorms {
  weight: number[];
  b: number[];
  avg: number[];
}

/** The fields' weights and b (tuning.ts) and their average lengths in `stats`. */
export function fieldNorms(stats: Pick<CollectionStats, "fieldDocs" | "fieldLength">): FieldNorms {
  const fields = TUNING.bm25.fields;
  return {
    weight: FIELDS.map((field) => fields[field].weight),
    b: FIELDS.map((field) => fields[field].b),
    avg: FIELDS.map((_, f) => (stats.fieldDocs[f]! > 0 ? stats.fieldLength[f]! / stats.fieldDocs[f]! : 1)),
  };
}

/** What one occurrence in a field of `length` code units counts: its weight over its length normalisation. */
export function fieldFactor(norms: FieldNorms, field: number, length: number): number {
  const b = norms.b[field]!;
  return norms.weight[field]! / (1 - b + (b * length) / (norms.avg[field] || 1));
}

/** A term's score from its counts weighed by their fields (the sum of count × fieldFactor). */
export function termScore(weighted: number, idfValue: number): number {
  const k1 = TUNING.bm25.k1;
  return (idfValue * weighted * (k1 + 1)) / (weighted + k1);
}

/** A count as the postings hold it (one byte). */
function cappedCount(tf: number): number {
  return Math.min(tf, 255);
}

/**
 * A term's count in a chunk's body from its counts as the index holds them: in the whole text
 * and in its input, each capped (so the scan and the index agree past the cap).
 */
export function bodyCount(inText: number, inInput: number): number {
  return Math.max(0, inText - inInput);
}

/**
 * Query words covered by a document scale its score: all words ×1, none × the floor. Words count
 * alike: weighing them by idf here lowered the real-session eval (the rarest word of a paraphrased
 * question is often one the answer lacks); BM25 weighs terms by idf already.
 */
export function coverageFactor(groupsMatched: number, groups: number): number {
  const coverage = TUNING.coverage;
  if (groups <= 1 || !coverage.on) return 1;
  return coverage.floor + (1 - coverage.floor) * (groupsMatched / groups);
}

function popcount(mask: number): number {
  let m = mask - ((mask >>> 1) & 0x55555555);
  m = (m & 0x33333333) + ((m >>> 2) & 0x33333333);
  return (((m + (m >>> 4)) & 0xf0f0f0f) * 0x1010101) >>> 24;
}

/** The coverage mask's bit for function words (FUNCTION_WORD_GROUP): set, so a document is marked matched, but not counted. */
const FUNCTION_WORD_BIT = 1 << 31;

/** Bit of a query word in a coverage mask (words past 30 share bit 30; function words have their own). */
export function groupBit(group: number): number {
  return group < 0 ? FUNCTION_WORD_BIT : 1 << Math.min(group, 30);
}

/** The query words (not function words) a coverage mask holds. */
export function wordsMatched(mask: number): number {
  return popcount(mask & ~FUNCTION_WORD_BIT);
}

/**
 * What BM25F needs to know of the documents it ranks: their number, how many hold each query
 * term (same order as the query's terms), and per field how many documents have it and their
 * total length. Project scope adds those of every session it searched, so all sessions are
 * scored against one collection.
 */
export interface CollectionStats {
  docs: number;
  df: number[];
  fieldDocs: number[];
  fieldLength: number[];
}

export function emptyStats(terms: number): CollectionStats {
  return { docs: 0, df: new Array<number>(terms).fill(0), fieldDocs: new Array<number>(FIELD_COUNT).fill(0), fieldLength: new Array<number>(FIELD_COUNT).fill(0) };
}

export function addStats(into: CollectionStats, from: Pick<CollectionStats, "docs" | "df"> & Partial<CollectionStats>): void {
  into.docs += from.docs;
  for (let t = 0; t < into.df.length; t++) into.df[t] = into.df[t]! + (from.df[t] ?? 0);
  for (let f = 0; f < FIELD_COUNT; f++) {
    into.fieldDocs[f] = into.fieldDocs[f]! + (from.fieldDocs?.[f] ?? 0);
    into.fieldLength[f] = into.fieldLength[f]! + (from.fieldLength?.[f] ?? 0);
  }
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
}

export function queryWeights(stats: CollectionStats, terms: readonly { weight: number; group: number }[]): QueryWeights {
  let found = 0;
  const foundOnly = TUNING.coverage.foundWordsOnly;
  terms.forEach((term, t) => {
    if (!foundOnly || stats.df[t]! > 0) found |= groupBit(term.group);
  });
  const idfs = stats.df.map((df, t) => idf(stats.docs, Math.min(df, stats.docs)) * terms[t]!.weight);
  return { idfs, groupOf: terms.map((term) => term.group), words: wordsMatched(found) };
}

/** A document's fields for BM25F: its body's field and length, and the length of the tool call's input it opens with (0: none). */
export interface DocFields {
  field: number;
  body: number;
  input: number;
}

/**
 * BM25F × coverage of one document from its per-term counts in its body and in its input (tf 0 =
 * absent; `input` undefined: none).
 */
export function scoreCounts(body: readonly number[], input: readonly number[] | undefined, doc: DocFields, weights: QueryWeights, norms: FieldNorms): number {
  let score = 0;
  let mask = 0;
  const { idfs, groupOf } = weights;
  const inBody = fieldFactor(norms, doc.field, doc.body);
  const inInput = input ? fieldFactor(norms, INPUT_FIELD, doc.input) : 0;
  for (let t = 0; t < body.length; t++) {
    const tf = body[t]!;
    const tfInput = input?.[t] ?? 0;
    if (tf === 0 && tfInput === 0) continue;
    const inputCount = cappedCount(tfInput);
    score += termScore(bodyCount(cappedCount(tf + tfInput), inputCount) * inBody + inputCount * inInput, idfs[t]!);
    mask |= groupBit(groupOf[t]!);
  }
  return score * coverageFactor(wordsMatched(mask), weights.words);
}
