// Orama index component hosting one session's term counts (term-counts.ts): Orama inserts a chunk
// (its text and a tool call's input, one property) and the component counts its terms; the
// chunk's row (message, part, range, input) is the documents store's, in the chunk table both
// share. Orama's search hands the component the query as its `term` parameter (queryParameter:
// tokens with the weights and words they count for, a corrected word's lower weight included, and
// how many best messages to return) and the filters as its `where`; the component scores every
// live chunk holding a term that the filters accept, BM25 × query-word coverage as the scan scores
// it, and keeps those of the best messages. Removal marks a chunk dead; the owner rebuilds when
// too much of the index is dead.

import type { AnyIndexStore, IIndex, SearchableValue } from "@orama/orama";
import { coverageFactor, groupBit, queryWeights, termScore, wordsMatched, type CollectionStats } from "../rank/bm25.ts";
import { fold } from "../text/normalize.ts";
import type { QueryTerm } from "../text/query.ts";
import type { HitType } from "../text/documents.ts";
import { groupChunks } from "../rank/rank.ts";
import { TokenSpans, tokenSpans } from "../text/tokenize.ts";
import type { SearchTuning } from "../tuning.ts";
import { insertBestScore } from "../../util/best.ts";
import { grown } from "../../util/grow.ts";
import { CHUNK_STRIDE } from "../types.ts";
import { type ChunkList, TermCounts } from "./term-counts.ts";

/**
 * The searchable property: the chunk's text, then the part of it that is a tool call's input (a
 * prefix, when the chunk has one, ending before a separator: documents.ts), whose terms count
 * inputWeight times in all (the tuning's, tuning.ts).
 */
export const TEXT_PROPERTY = "text";
/**
 * The schema the component indexes: the text, and the part's type, which the stored document has
 * (the text it has not): Orama removes a document from the index through the properties it has.
 */
export const CHUNK_SCHEMA = { [TEXT_PROPERTY]: "string[]", type: "enum" } as const;

/** The filters of a search as Orama's `where`: every condition given must hold. */
export interface ChunkWhere {
  type?: { in: HitType[] };
  tool?: { eq: string };
  /** Messages the search may not return (hidden, or rejected by a per-message filter). */
  slot?: { nin: number[] };
}

/** What a search weighs a query term by (QueryTerm's token, group and weight). */
type SearchedTerm = Pick<QueryTerm, "token" | "group" | "weight">;

/** A search: the query's terms, and how many of the best messages to return the chunks of (all when absent). */
export interface ChunkQuery {
  terms: readonly SearchedTerm[];
  messages?: number;
}

/** A query as Orama's `term` search parameter: the component's own query language. */
export function queryParameter({ terms, messages }: ChunkQuery): string {
  return JSON.stringify({ terms: terms.map(({ token, group, weight }) => [token, group, weight]), messages });
}

function queryOf(parameter: string): ChunkQuery {
  const query = JSON.parse(parameter) as { terms: [string, number, number][]; messages?: number };
  if (!Array.isArray(query?.terms)) throw new Error("the chunk index's term parameter is {terms: [[token, group, weight]…], messages}");
  return { terms: query.terms.map(([token, group, weight]) => ({ token, group, weight })), messages: query.messages };
}

export class ChunkIndexStore {
  /** Orama's search reads this (no vector properties here). */
  readonly vectorIndexes: Record<string, never> = {};
  readonly counts = new TermCounts();
  /** Per chunk (Orama's internal id): alive flag. */
  alive = new Uint8Array(256);
  /** One past the highest chunk added. */
  docsEnd = 0;
  liveDocs = 0;
  deadDocs = 0;
  liveLength = 0;
  /** Per chunk, while scoring: its score and matched query words (a bit each); the chunks touched. */
  private score = new Float64Array(0);
  private mask = new Int32Array(0);
  private touched = new Int32Array(0);
  private readonly spans = new TokenSpans();

  /** `table`: the chunks' rows, written by the documents store (meta-store.ts); `tuning`: what chunks are counted and scored with. */
  constructor(
    readonly table: ChunkList,
    private readonly tuning: SearchTuning,
  ) {}

  add(chunk: number, text: string, input: number): void {
    if (chunk >= this.alive.length) this.alive = grown(this.alive, chunk + 1);
    tokenSpans(text, this.spans);
    this.counts.add(chunk, fold(text), this.spans, input, this.tuning.inputWeight);
    this.alive[chunk] = 1;
    this.docsEnd = Math.max(this.docsEnd, chunk + 1);
    this.liveDocs++;
    this.liveLength += text.length;
  }

  /** The where clause as a test of a chunk. */
  accepts(where: ChunkWhere): (chunk: number) => boolean {
    const { chunks: rows, parts } = this.table;
    const excluded = where.slot && new Set(where.slot.nin);
    return (chunk) => {
      const part = parts[rows[chunk * CHUNK_STRIDE + 1]!]!;
      return (
        (where.type === undefined || where.type.in.includes(part.type)) &&
        (where.tool === undefined || part.tool === where.tool.eq) &&
        !excluded?.has(rows[chunk * CHUNK_STRIDE]!)
      );
    };
  }

  remove(chunk: number): void {
    if (this.alive[chunk] !== 1) return;
    this.alive[chunk] = 0;
    this.liveDocs--;
    this.deadDocs++;
    this.liveLength -= this.length(chunk);
  }

  /** A chunk's length in code units, from its row. */
  private length(chunk: number): number {
    const rows = this.table.chunks;
    return rows[chunk * CHUNK_STRIDE + 3]! - rows[chunk * CHUNK_STRIDE + 2]!;
  }

  /**
   * Live chunks holding term `id`. Removed (and replaced) chunks stay in the counts until a
   * rebuild: counting them would skew idf away from what a fresh build (and the scan) gives.
   */
  liveDf(id: number): number {
    let count = 0;
    this.counts.forEachChunk(id, (chunk) => (count += this.alive[chunk]!));
    return count;
  }

  /** The live chunks' number, total length and, per query term, how many hold it. */
  stats(terms: readonly SearchedTerm[]): CollectionStats {
    return this.statsOf(this.termIds(terms));
  }

  /** Each term's id in the counts (−1: not held). */
  private termIds(terms: readonly SearchedTerm[]): number[] {
    return terms.map(({ token }) => this.counts.terms.find(token, 0, token.length));
  }

  private statsOf(ids: readonly number[]): CollectionStats {
    return { docs: this.liveDocs, length: this.liveLength, df: ids.map((id) => (id < 0 ? 0 : this.liveDf(id))) };
  }

  /**
   * Every live chunk holding a query term that `accept` takes, with its score, as Orama's search
   * takes them; those of the best `query.messages` messages only when given (bestMessages).
   */
  search({ terms, messages }: ChunkQuery, accept: ((chunk: number) => boolean) | undefined): Array<[number, number]> {
    if (this.liveDocs === 0) return [];
    if (this.score.length < this.docsEnd) {
      this.score = new Float64Array(this.alive.length);
      this.mask = new Int32Array(this.alive.length);
      this.touched = new Int32Array(this.alive.length);
    }
    const { score, mask, touched, alive, tuning } = this;
    const rows = this.table.chunks;
    const avg = this.liveLength / this.liveDocs;
    const ids = this.termIds(terms);
    const stats = this.statsOf(ids);
    const weights = queryWeights(stats, terms, tuning);
    let n = 0;
    terms.forEach(({ group }, t) => {
      if (stats.df[t] === 0) return;
      const bit = groupBit(group);
      const weight = weights.idfs[t]!;
      this.counts.forEachChunk(ids[t]!, (chunk, tf) => {
        if (alive[chunk] !== 1) return;
        const s = termScore(tf, weight, rows[chunk * CHUNK_STRIDE + 3]! - rows[chunk * CHUNK_STRIDE + 2]!, avg, tuning);
        if (mask[chunk] === 0) {
          touched[n++] = chunk;
          score[chunk] = s;
          mask[chunk] = bit;
        } else {
          score[chunk] = score[chunk]! + s;
          mask[chunk] = mask[chunk]! | bit;
        }
      });
    });
    let kept = 0;
    for (let i = 0; i < n; i++) {
      const chunk = touched[i]!;
      const matched = mask[chunk]!;
      mask[chunk] = 0;
      if (accept && !accept(chunk)) continue;
      score[chunk] = score[chunk]! * coverageFactor(wordsMatched(matched), weights.words, tuning);
      touched[kept++] = chunk;
    }
    if (messages !== undefined) kept = this.bestMessages(kept, messages);
    const found = new Array<[number, number]>(kept);
    for (let i = 0; i < kept; i++) found[i] = [touched[i]!, score[touched[i]!]!];
    return found;
  }

  /**
   * Keeps of touched[0, n) the chunks of the best `wanted` messages and those tied with the last
   * (ranking breaks the tie, not this cut), each scored as ranking scores a message before its
   * weights and boosts (rank.ts groupChunks). Returns how many are kept, in chunk order: Orama
   * then sorts and fetches a few hundred hits, not a common word's thousands.
   */
  private bestMessages(n: number, wanted: number): number {
    const { score, touched } = this;
    const rows = this.table.chunks;
    const slot = new Int32Array(n);
    const part = new Int32Array(n);
    const scored = new Float64Array(n);
    let slots = 0;
    for (let i = 0; i < n; i++) {
      slot[i] = rows[touched[i]! * CHUNK_STRIDE]!;
      part[i] = rows[touched[i]! * CHUNK_STRIDE + 1]!;
      scored[i] = score[touched[i]!]!;
      slots = Math.max(slots, slot[i]! + 1);
    }
    const { order, ends, scores } = groupChunks(n, slots, slot, part, scored, this.tuning);
    if (scores.length <= wanted) return n;
    const best = new Float64Array(wanted);
    for (let r = 0, held = 0; r < scores.length; r++) held = insertBestScore(best, 0, held, wanted, scores[r]!);
    const floor = belowTies(best[wanted - 1]!);
    let kept = 0;
    for (let r = 0, from = 0; r < ends.length; from = ends[r++]!) {
      if (scores[r]! >= floor) for (let i = from; i < ends[r]!; i++) order[kept++] = touched[order[i]!]!;
    }
    touched.set(order.subarray(0, kept));
    touched.subarray(0, kept).sort();
    return kept;
  }

  /** Heap bytes held by the arrays. */
  bytes(): number {
    return this.counts.bytes() + this.alive.byteLength + this.score.byteLength + this.mask.byteLength + this.touched.byteLength;
  }
}

/** A score a little below `score`: what scores as much, summed in another order, is not cut. */
function belowTies(score: number): number {
  return score - 1e-9 * Math.max(1, Math.abs(score));
}

/**
 * The chunks a where clause accepts, answered one chunk at a time: Orama hands what
 * searchByWhereClause gives to the component's search unread, which asks it only of the chunks
 * holding a query term (building the whole set would visit every chunk).
 */
class AcceptedChunks extends Set<number> {
  constructor(readonly accepts: (chunk: number) => boolean) {
    super();
  }

  override has(chunk: number): boolean {
    return this.accepts(chunk);
  }
}

/** The text property's value: the chunk's text and, when it has one, its input. */
function textAndInput(value: SearchableValue): [string, string | undefined] {
  if (!Array.isArray(value) || typeof value[0] !== "string" || value.length > 2 || (value.length === 2 && typeof value[1] !== "string")) {
    throw new Error(`${TEXT_PROPERTY} must be [text] or [text, input]`);
  }
  return [value[0], value[1] as string | undefined];
}

/** Orama types the store it hands search loosely: it is checked to be ours. */
function storeOf(index: AnyIndexStore): ChunkIndexStore {
  if (!(index instanceof ChunkIndexStore)) throw new Error("not a chunk index store");
  return index;
}

/**
 * The methods of Orama's index interface that Orama reaches for our use (create, insert, remove,
 * count, search with `where`; methods/insert.js, remove.js, search-fulltext.js): the score
 * hooks are only called by Orama's own index, load/save only by its serialization.
 */
export type ReachedIndex<I extends AnyIndexStore> = Pick<
  IIndex<I>,
  "create" | "insert" | "remove" | "search" | "searchByWhereClause" | "getSearchableProperties" | "getSearchablePropertiesWithTypes"
>;

/** The index component for CHUNK_SCHEMA over `table` (the session index's, shared with its documents store), counting and scoring with `tuning`. */
export function createChunkIndexComponent(table: ChunkList, tuning: SearchTuning): ReachedIndex<ChunkIndexStore> {
  return {
    create: () => new ChunkIndexStore(table, tuning),
    insert(_impl, index, prop, _id, internalId, value: SearchableValue) {
      if (prop !== TEXT_PROPERTY) return;
      const [text, input] = textAndInput(value);
      index.add(internalId, text, input?.length ?? 0);
    },
    // Called once per property the stored document still has: marking dead is idempotent.
    remove(_impl, index, _prop, _id, internalId) {
      index.remove(internalId);
      return true;
    },
    search: (index, term, _tokenizer, _language, _properties, _exact, _tolerance, _boost, _relevance, _docsCount, where) =>
      storeOf(index).search(queryOf(term), where instanceof AcceptedChunks ? where.accepts : undefined),
    searchByWhereClause: (index, _tokenizer, where) => new AcceptedChunks(storeOf(index).accepts(where as ChunkWhere)),
    getSearchableProperties: () => Object.keys(CHUNK_SCHEMA),
    getSearchablePropertiesWithTypes: () => CHUNK_SCHEMA,
  };
}
