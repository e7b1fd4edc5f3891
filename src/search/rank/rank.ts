// From scored chunks to ranked messages: a message scores by its best chunk plus a share of its
// other chunks; the whole phrase, or a path or name of the query held whole, boosts a chunk
// (phrase.ts); recency breaks ties. Builds hits and snippets for the messages returned only.

import type { HistoryMessage } from "../../history/types.ts";
import type { ToolVisibility } from "../../history/tool-visibility.ts";
import { partTextPieces, sliceOfPieces, type HitType } from "../text/documents.ts";
import type { ScoredDoc } from "../scored.ts";
import { snippets, type Mark } from "../text/snippets.ts";
import type { ParsedQuery } from "../text/tokenize.ts";
import { phraseBoost } from "./phrase.ts";
export const OTHER_CHUNKS_SHARE = 0.25;
export const OTHER_CHUNKS_COUNTED = 4;

/** How many of the best messages (before the phrase boost) the phrase boost may reorder. */
export function rankPool(limit: number): number {
  return limit * 3 + 20;
}

export interface HitResult {
  type: HitType;
  partId: string;
  tool?: string;
  snippets: string[];
}

export interface MessageResult {
  message: HistoryMessage;
  score: number;
  hits: HitResult[];
  /** Hits (parts) matched beyond those returned. */
  remainHits: number;
  /** Builds `hits` and `remainHits` when ranking left them for later (see completeHits). */
  pendingHits?: () => { hits: HitResult[]; remain: number };
}

/** Fills in hits and snippets a ranking deferred (no-op when they are there). */
export function completeHits(result: MessageResult): void {
  if (!result.pendingHits) return;
  const { hits, remain } = result.pendingHits();
  result.hits = hits;
  result.remainHits = remain;
  delete result.pendingHits;
}

export interface RankOptions {
  limit: number;
  maxHits: number;
  maxSnippets: number;
  snippetChars: number;
  visibility: ToolVisibility;
  /** Keyword query (phrase boost); absent for literal/regex. */
  parsed?: ParsedQuery;
  /** Where the query matches a chunk's text, for snippets. */
  marks(text: string, doc: ScoredDoc): Mark[];
  /**
   * How many leading results get their hits and snippets now; the rest carry pendingHits
   * (a project search builds snippets only for the results it finally returns).
   */
  hitsFor?: number;
}

interface Group {
  message: HistoryMessage;
  docs: ScoredDoc[];
  score: number;
}

/** A message's score from its chunks' scores, sorted best first in scores[from, to): the best plus a share of the next few. */
export function messageScore(scores: ArrayLike<number>, from: number, to: number): number {
  let score = scores[from]!;
  for (let i = from + 1; i < to && i - from <= OTHER_CHUNKS_COUNTED; i++) score += OTHER_CHUNKS_SHARE * scores[i]!;
  return score;
}

/** How many of a message's best chunks messageScore reads. */
export const MESSAGE_SCORE_CHUNKS = OTHER_CHUNKS_COUNTED + 1;

/**
 * How many of a message's best chunks (before the boost) are looked in for the whole phrase. A
 * message's score reads its best few chunks only, so a chunk further down rarely climbs into them;
 * checking every chunk of a 200 KB output would read megabytes of text per search.
 */
export const PHRASE_CHUNKS = 2 * MESSAGE_SCORE_CHUNKS;

function groupScore(docs: ScoredDoc[]): number {
  docs.sort((a, b) => b.score - a.score);
  const best = docs.slice(0, MESSAGE_SCORE_CHUNKS).map((doc) => doc.score);
  return messageScore(best, 0, best.length);
}

/** Higher score first; on a tie the newer message. */
export function compareResults(a: { score: number; message: HistoryMessage }, b: { score: number; message: HistoryMessage }): number {
  if (Math.abs(a.score - b.score) > 1e-9 * Math.max(1, Math.abs(a.score))) return b.score - a.score;
  const at = a.message.created ?? 0;
  const bt = b.message.created ?? 0;
  if (at !== bt) return bt - at;
  return a.message.id < b.message.id ? 1 : a.message.id > b.message.id ? -1 : 0;
}

/** The `k` first items under `compare`, in order (a bounded insertion, no full sort). */
export function selectBest<T>(items: readonly T[], k: number, compare: (a: T, b: T) => number): T[] {
  if (items.length <= k) return [...items].sort(compare);
  const best: T[] = [];
  for (const item of items) {
    if (best.length === k && compare(item, best[k - 1]!) >= 0) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(item, best[mid]!) < 0) hi = mid;
      else lo = mid + 1;
    }
    best.splice(lo, 0, item);
    if (best.length > k) best.pop();
  }
  return best;
}

/** Chunk text, cut from the part's text pieces (read once per part per ranking; never joined whole). */
export function textReader(visibility: ToolVisibility): (doc: ScoredDoc) => string {
  const parts = new Map<string, string[]>();
  return (doc) => {
    if (doc.text === undefined) {
      const key = `${doc.message.id}\u0000${doc.partId}`;
      let pieces = parts.get(key);
      if (pieces === undefined) {
        const part = doc.message.parts.find((p) => p.id === doc.partId);
        pieces = part ? partTextPieces(part, visibility) : [];
        parts.set(key, pieces);
      }
      doc.text = sliceOfPieces(pieces, doc.start, doc.end);
    }
    return doc.text;
  };
}

function buildHits(group: Group, options: RankOptions, textOf: (doc: ScoredDoc) => string): { hits: HitResult[]; remain: number } {
  const parts = new Map<string, ScoredDoc[]>();
  for (const doc of group.docs) {
    const list = parts.get(doc.partId);
    if (list) list.push(doc);
    else parts.set(doc.partId, [doc]);
  }
  const ordered = [...parts.values()].sort((a, b) => b[0]!.score - a[0]!.score);
  const hits: HitResult[] = [];
  for (const chunks of ordered.slice(0, options.maxHits)) {
    const first = chunks[0]!;
    const found: string[] = [];
    for (const chunk of chunks) {
      if (found.length >= options.maxSnippets) break;
      const text = textOf(chunk);
      found.push(...snippets(text, options.marks(text, chunk), options.snippetChars, options.maxSnippets - found.length));
    }
    const hit: HitResult = { type: first.type, partId: first.partId, snippets: found };
    if (first.tool !== undefined) hit.tool = first.tool;
    hits.push(hit);
  }
  return { hits, remain: Math.max(0, ordered.length - options.maxHits) };
}

/** Groups chunks by message, applies the phrase boost to the leading candidates, ranks, builds hits. */
export function rankMessages(docs: ScoredDoc[], options: RankOptions): MessageResult[] {
  const byMessage = new Map<string, Group>();
  for (const doc of docs) {
    const group = byMessage.get(doc.message.id);
    if (group) group.docs.push(doc);
    else byMessage.set(doc.message.id, { message: doc.message, docs: [doc], score: 0 });
  }
  const all = [...byMessage.values()];
  for (const group of all) group.score = groupScore(group.docs);
  // Only the boost pool needs ordering: nothing past it can reach the first `limit`.
  const groups = selectBest(all, rankPool(options.limit), compareResults);
  const textOf = textReader(options.visibility);
  const parsed = options.parsed;
  if (parsed?.phrase || parsed?.compounds.length) {
    const pool = groups.slice(0, rankPool(options.limit));
    for (const group of pool) {
      // groupScore left the docs best first.
      const checked = Math.min(group.docs.length, PHRASE_CHUNKS);
      for (let i = 0; i < checked; i++) {
        const doc = group.docs[i]!;
        doc.score *= phraseBoost(parsed, textOf(doc));
      }
      group.score = groupScore(group.docs);
    }
    pool.sort(compareResults);
    groups.splice(0, pool.length, ...pool);
  }
  const eager = options.hitsFor ?? options.limit;
  return groups.slice(0, options.limit).map((group, rank) => {
    if (rank >= eager) {
      return { message: group.message, score: group.score, hits: [], remainHits: 0, pendingHits: () => buildHits(group, options, textOf) };
    }
    const { hits, remain } = buildHits(group, options, textOf);
    return { message: group.message, score: group.score, hits, remainHits: remain };
  });
}
