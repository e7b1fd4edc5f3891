// Orama index component over the packed postings (postings.ts) and the filterable attributes
// (attributes.ts). Orama calls insert once per schema property: the text goes through the
// tokenizer component into the postings, the other properties into the attributes. Search
// scores every live document holding a query term (BM25 × query-word coverage, computed in
// typed-array accumulators) among those the where clause lets through, and gives Orama the
// documents of the best groups (messages) only, as the owner's grouping policy says, so Orama
// sorts and returns a few hundred hits rather than thousands (docs/architecture.md).

import type { AnyIndexStore, IIndex, SearchableValue, Tokenizer } from "@orama/orama";
import { coverageFactor, groupBit, queryWeights, termScore, wordsMatched, type CollectionStats } from "../../rank/bm25.ts";
import { SEP, charClass } from "../../text/normalize.ts";
import { TokenSpans } from "../../text/tokenize.ts";
import type { ParsedQuery, QueryTerm } from "../../text/query.ts";
import { Attributes, type AttributeSchema } from "./attributes.ts";
import { addDocument, addOccurrences, countPostings, createPostingsStore, forEachPosting, removeDocument, type PostingsStore } from "./postings.ts";
import { TermTokenizer } from "./tokenizer.ts";
import { INPUT_WEIGHT } from "../../text/documents.ts";

/**
 * The searchable property: the chunk's text, then the part of it that is a tool call's input (a
 * prefix, when the chunk has one), whose terms, already counted with the text, count
 * INPUT_WEIGHT times in all. Every other schema property is a filterable attribute.
 */
const TEXT_PROPERTY = "text";

/** Which documents a search returns: those of the best groups. The owner supplies it (ranking's policy). */
export interface ResultGrouping {
  /** The enum attribute whose value groups documents. */
  property: string;
  /** How many of the best groups to return the documents of (groups tied with the last are kept too). */
  groups(): number;
  /** A group's score from its best parts' scores (partScore), sorted best first in scores[from, to). */
  score(scores: ArrayLike<number>, from: number, to: number): number;
  /** A part's score from its best documents' scores, sorted best first in scores[from, to), and how many of its documents matched. */
  partScore(scores: ArrayLike<number>, from: number, to: number, matched: number): number;
  /** How many of a group's best parts its score reads, and of a part's best documents its score reads. */
  counted: number;
  /** By document id, a number naming the part the document is a chunk of (equal within one part). */
  parts(): Int32Array;
}

export class PostingsIndexStore {
  /** Orama's search reads this (no vector properties here). */
  readonly vectorIndexes: Record<string, never> = {};
  readonly postings: PostingsStore = createPostingsStore();
  readonly attributes: Attributes;

  constructor(schema: AttributeSchema) {
    this.attributes = new Attributes(schema);
  }
}

type TokenScore = [number, number];

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
export function liveDocFrequency(store: PostingsStore, term: number): number {
  if (store.deadDocs === 0) return countPostings(store, term);
  const alive = store.alive;
  let count = 0;
  forEachPosting(store, term, (doc) => {
    if (alive[doc] === 1) count++;
  });
  return count;
}

/**
 * The indexed terms a query term reads: its token, or for a decimal quoted shorter (`longer`) the
 * longer decimals it matches (the same ones the scan counts: query.ts termAt).
 */
function termIds(store: PostingsStore, term: QueryTerm): number[] {
  if (term.longer === undefined) {
    const id = store.terms.find(term.token, 0, term.token.length);
    return id < 0 ? [] : [id];
  }
  const ids: number[] = [];
  const next = term.longer;
  store.terms.forEachLongerDecimal(term.token, (id, digit) => {
    if (digit >= next) ids.push(id);
  });
  return ids;
}

/**
 * Calls visit(doc, tf) for every posting of the terms `ids`, once per document with its tf summed
 * over them (dead documents included: the caller checks). One term is read straight from its
 * postings, with no map: the usual case, on every search.
 */
function forEachDoc(store: PostingsStore, ids: readonly number[], visit: (doc: number, tf: number) => void): void {
  if (ids.length === 1) {
    forEachPosting(store, ids[0]!, visit);
    return;
  }
  const tfs = new Map<number, number>();
  for (const id of ids) forEachPosting(store, id, (doc, tf) => tfs.set(doc, (tfs.get(doc) ?? 0) + tf));
  for (const [doc, tf] of tfs) visit(doc, tf);
}

/** Live documents holding any of the terms `ids`. */
function docFrequency(store: PostingsStore, ids: readonly number[]): number {
  if (ids.length === 0) return 0;
  if (ids.length === 1) return liveDocFrequency(store, ids[0]!);
  const alive = store.alive;
  let count = 0;
  forEachDoc(store, ids, (doc) => {
    if (alive[doc] === 1) count++;
  });
  return count;
}

function statsOf(store: PostingsStore, ids: readonly number[][]): CollectionStats {
  const df = ids.map((termIds) => Math.min(store.liveDocs, docFrequency(store, termIds)));
  return { docs: store.liveDocs, length: store.liveLength, df };
}

/** The live documents' number, total length and, per query term, how many hold it. */
export function collectionStats(store: PostingsStore, parsed: ParsedQuery): CollectionStats {
  return statsOf(
    store,
    parsed.terms.map((term) => termIds(store, term)),
  );
}

/** BM25 × coverage of every live document holding any query term and accepted by `where` (all when absent): touched[0, n) and their scores. */
function scoreDocs(
  store: PostingsStore,
  tokenizer: TermTokenizer,
  query: string | ParsedQuery,
  where: ReadonlySet<number> | undefined,
): { scratch: Scratch; n: number } {
  // A parsed query may carry weights its text does not say (a typo's correction weighs less).
  const parsed = typeof query === "string" ? tokenizer.parse(query) : query;
  const scratch = scratchFor(store);
  const docs = store.liveDocs;
  if (docs === 0) return { scratch, n: 0 };
  const { score, mask, touched } = scratch;
  let n = 0;
  const avg = store.liveLength / docs;
  const alive = store.alive;
  const length = store.length;
  const ids = parsed.terms.map((term) => termIds(store, term));
  const stats = statsOf(store, ids);
  const weights = queryWeights(stats, parsed.terms);
  parsed.terms.forEach((term, t) => {
    if (stats.df[t] === 0) return;
    const bit = groupBit(term.group);
    const weight = weights.idfs[t]!;
    forEachDoc(store, ids[t]!, (doc, tf) => {
      if (alive[doc] !== 1) return;
      const s = termScore(Math.min(tf, 255), weight, length[doc]!, avg);
      if (mask[doc] === 0) {
        touched[n++] = doc;
        score[doc] = s;
        mask[doc] = bit;
      } else {
        score[doc] = score[doc]! + s;
        mask[doc] = mask[doc]! | bit;
      }
    });
  });
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const doc = touched[i]!;
    const matched = mask[doc]!;
    mask[doc] = 0;
    if (where && !where.has(doc)) continue;
    score[doc] = score[doc]! * coverageFactor(wordsMatched(matched), weights.words);
    touched[kept++] = doc;
  }
  return { scratch, n: kept };
}

/** Per group key: parts counted and the best parts' scores (sorted, `grouping.counted` a group), reused across searches. */
interface GroupScratch {
  count: Int32Array;
  best: Float64Array;
  score: Float64Array;
  keys: Int32Array;
}

const groupScratchByStore = new WeakMap<PostingsStore, GroupScratch>();

/** The store's scratch of at least `slots` slots of `counted` scores each, made anew (twice the size) when smaller. */
function scratchOf<T extends { count: Int32Array; best: Float64Array }>(
  byStore: WeakMap<PostingsStore, T>,
  store: PostingsStore,
  slots: number,
  counted: number,
  make: (size: number) => T,
): T {
  let scratch = byStore.get(store);
  if (!scratch || scratch.count.length < slots || scratch.best.length < slots * counted) {
    scratch = make(Math.max(slots, 256) * 2);
    byStore.set(store, scratch);
  }
  return scratch;
}

/** Inserts `value` into the best-first list list[base, base + held) of at most `size`; returns the new length. */
function insertBest(list: Float64Array, base: number, held: number, size: number, value: number): number {
  if (held === size && !(value > list[base + size - 1]!)) return held;
  let j = held === size ? size - 1 : held;
  while (j > 0 && list[base + j - 1]! < value) {
    list[base + j] = list[base + j - 1]!;
    j--;
  }
  list[base + j] = value;
  return held === size ? held : held + 1;
}

/** Per part number: documents matched, how many of the best scores are held, those scores, the part's group; reused across searches. */
interface PartScratch {
  matched: Int32Array;
  count: Int32Array;
  best: Float64Array;
  key: Int32Array;
  touched: Int32Array;
}

const partScratchByStore = new WeakMap<PostingsStore, PartScratch>();

/**
 * The scored documents of the best `wanted` groups (every one when there are no more), best
 * first: score, then document id (Orama's own order). One pass keeps each part's best
 * `grouping.counted` scores and how many of its documents matched; a second scores each part and
 * keeps each group's best `grouping.counted` parts; so only the documents returned are sorted, not
 * every one touched.
 */
function bestGroups(
  store: PostingsStore,
  scratch: Scratch,
  n: number,
  key: Int32Array,
  keyCount: number,
  grouping: ResultGrouping,
  wanted: number,
): RankedDocs {
  const { score, touched } = scratch;
  const counted = Math.max(1, grouping.counted);
  const groups = scratchOf(groupScratchByStore, store, keyCount, counted, (size) => ({
    count: new Int32Array(size),
    best: new Float64Array(size * counted),
    score: new Float64Array(size),
    keys: new Int32Array(size),
  }));
  const { count, best, keys } = groups;
  const partOf = grouping.parts();
  let maxPart = 0;
  for (let i = 0; i < n; i++) maxPart = Math.max(maxPart, partOf[touched[i]!]!);
  const parts = scratchOf(partScratchByStore, store, maxPart + 1, counted, (size) => ({
    matched: new Int32Array(size),
    count: new Int32Array(size),
    best: new Float64Array(size * counted),
    key: new Int32Array(size),
    touched: new Int32Array(size),
  }));
  let partCount = 0;
  for (let i = 0; i < n; i++) {
    const doc = touched[i]!;
    const p = partOf[doc]!;
    const held = parts.count[p]!;
    if (held === 0) {
      parts.touched[partCount++] = p;
      parts.key[p] = key[doc]!;
      parts.matched[p] = 0;
    }
    parts.matched[p]!++;
    parts.count[p] = insertBest(parts.best, p * counted, held, counted, score[doc]!);
  }
  let groupCount = 0;
  for (let q = 0; q < partCount; q++) {
    const p = parts.touched[q]!;
    const k = parts.key[p]!;
    const value = grouping.partScore(parts.best, p * counted, p * counted + parts.count[p]!, parts.matched[p]!);
    parts.count[p] = 0;
    const held = count[k]!;
    if (held === 0) keys[groupCount++] = k;
    count[k] = insertBest(best, k * counted, held, counted, value);
  }
  const groupScores = new Float64Array(groupCount);
  for (let g = 0; g < groupCount; g++) {
    const k = keys[g]!;
    const value = grouping.score(best, k * counted, k * counted + count[k]!);
    groupScores[g] = value;
    groups.score[k] = value;
    count[k] = 0;
  }
  let floor = -Infinity;
  if (groupCount > wanted) {
    const ordered = groupScores.slice().sort();
    const last = ordered[ordered.length - wanted]!;
    // Groups tied with the last one kept stay: ranking breaks the tie, not this cut.
    floor = last - 1e-9 * Math.max(1, Math.abs(last));
  }
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const doc = touched[i]!;
    if (groups.score[key[doc]!]! >= floor) touched[kept++] = doc;
  }
  return bestFirst(touched, kept, score, store.docsEnd);
}

/** Documents of a search, best first: score, then the lower document id (Orama's own order). */
interface RankedDocs {
  docs: Int32Array;
  scores: Float64Array;
}

/**
 * docs[0, n) ordered by score (highest first), then id. Each document's sort key packs the rank of
 * its score among the distinct scores with its id into one float64, so two native numeric sorts
 * do the work of a comparator sort of pairs (several times slower in JSC).
 */
function bestFirst(docs: Int32Array, n: number, score: Float64Array, idEnd: number): RankedDocs {
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) values[i] = score[docs[i]!]!;
  values.sort();
  const base = idEnd + 1;
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const doc = docs[i]!;
    const s = score[doc]!;
    // First position of s in the ascending values: equal scores share it.
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (values[mid]! < s) lo = mid + 1;
      else hi = mid;
    }
    keys[i] = (n - 1 - lo) * base + doc;
  }
  keys.sort();
  const out: RankedDocs = { docs: new Int32Array(n), scores: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    const doc = keys[i]! % base;
    out.docs[i] = doc;
    out.scores[i] = score[doc]!;
  }
  return out;
}

/**
 * A search of the store: the documents of the best `groups` groups holding a query term that
 * `where` accepts (all when absent), scored, best first. SessionIndex calls it directly; Orama's
 * own search path costs more than the search (it allocates one slot per indexed document).
 */
function searchStore(
  store: PostingsIndexStore,
  tokenizer: TermTokenizer,
  term: string | ParsedQuery,
  where: ReadonlySet<number> | undefined,
  grouping: ResultGrouping,
  groups: number,
): RankedDocs {
  const { scratch, n } = scoreDocs(store.postings, tokenizer, term, where);
  return bestGroups(store.postings, scratch, n, store.attributes.codes(grouping.property), store.attributes.codeCount(grouping.property) + 1, grouping, groups);
}

// Orama types the store it hands search and searchByWhereClause loosely, and the tokenizer as
// its own interface: both are checked to be ours.
function storeOf(index: AnyIndexStore): PostingsIndexStore {
  if (!(index instanceof PostingsIndexStore)) throw new Error("not a postings index store");
  return index;
}

function tokenizerOf(tokenizer: Tokenizer): TermTokenizer {
  if (!(tokenizer instanceof TermTokenizer)) throw new Error("the postings index needs the TermTokenizer component");
  return tokenizer;
}

/** The text property's value: the chunk's text and, when it has one, its input. */
function textAndInput(value: SearchableValue): [string, string | undefined] {
  if (!Array.isArray(value) || typeof value[0] !== "string" || value.length > 2 || (value.length === 2 && typeof value[1] !== "string")) {
    throw new Error(`${TEXT_PROPERTY} must be [text] or [text, input]`);
  }
  return [value[0], value[1] as string | undefined];
}

/**
 * Whether a chunk's input (its leading part) has as its terms exactly the text's terms that start
 * within it: it is a prefix of the text that ends the text or is followed by a separator other
 * than a dot (a dot may join the numbers of a version), so no term runs across its end. A tool
 * call's signature is followed by a line break; its terms (a tenth of the dev sessions' text)
 * are then not folded and tokenized a second time.
 */
export function inputSpansInText(text: string, input: string): boolean {
  const end = input.length;
  if (end > text.length || !text.startsWith(input)) return false;
  if (end === text.length) return true;
  const code = text.charCodeAt(end);
  return code !== 0x2e && charClass(code) === SEP;
}

/**
 * The methods of Orama's index interface that Orama reaches for our use (create, insert, remove,
 * count, search with `where`; methods/insert.js, remove.js, search-fulltext.js): the score hooks
 * are only called by Orama's own index, load/save only by its serialization.
 */
export type ReachedIndex<I extends AnyIndexStore> = Pick<
  IIndex<I>,
  "create" | "insert" | "remove" | "search" | "searchByWhereClause" | "getSearchableProperties" | "getSearchablePropertiesWithTypes"
>;

/** The index component for a schema of `text` plus the given filterable attributes. */
export function createPostingsIndexComponent(attributes: AttributeSchema, grouping: ResultGrouping): ReachedIndex<PostingsIndexStore> {
  const properties = [TEXT_PROPERTY, ...Object.keys(attributes)];
  // To Orama an ordinal is an enum (of numbers).
  const attributeTypes = Object.fromEntries(Object.entries(attributes).map(([property, type]) => [property, type === "ordinal" ? ("enum" as const) : type]));
  const types = { [TEXT_PROPERTY]: "string[]" as const, ...attributeTypes };
  const spans = new TokenSpans();
  return {
    create: () => new PostingsIndexStore(attributes),
    insert(_impl, index, prop, _id, internalId, value: SearchableValue, _type, _language, tokenizer) {
      if (prop !== TEXT_PROPERTY) {
        index.attributes.set(prop, internalId, value);
        return;
      }
      const [text, input] = textAndInput(value);
      const terms = tokenizerOf(tokenizer);
      const folded = terms.spans(text, spans);
      addDocument(index.postings, internalId, folded, spans, text.length);
      if (input === undefined) return;
      if (inputSpansInText(text, input)) addOccurrences(index.postings, internalId, folded, spans, INPUT_WEIGHT - 1, input.length);
      else addOccurrences(index.postings, internalId, terms.spans(input, spans), spans, INPUT_WEIGHT - 1);
    },
    // Called once per property the stored document still has: marking dead is idempotent.
    remove(_impl, index, _prop, _id, internalId) {
      removeDocument(index.postings, internalId);
      return true;
    },
    search: (index, term, tokenizer, _language, _properties, _exact, _tolerance, _boost, _relevance, _docsCount, where) => {
      const { docs, scores } = searchStore(storeOf(index), tokenizerOf(tokenizer), term, where, grouping, grouping.groups());
      return Array.from(docs, (doc, i): TokenScore => [doc, scores[i]!]);
    },
    searchByWhereClause(index, _tokenizer, where) {
      const store = storeOf(index);
      return store.attributes.select(where, store.postings.docsEnd, store.postings.alive);
    },
    getSearchableProperties: () => properties,
    getSearchablePropertiesWithTypes: () => types,
  };
}
