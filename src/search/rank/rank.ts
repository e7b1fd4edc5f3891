// From scored chunks to ranked messages: a part scores by its best chunk, a message by its best
// part plus a share of its next few, a compaction summary at a lower weight than the messages it
// restates; a path or name of the query held whole boosts a chunk (compound.ts), and so does the
// call a command or change question asks for (intent-boost.ts); recency breaks ties. Builds hits and
// snippets for the messages returned only.

import { isCompactionSummary } from "../../history/summaries.ts";
import type { HistoryMessage } from "../../history/types.ts";
import type { ToolVisibility } from "../../history/tool-visibility.ts";
import { CALL_OUTPUT_SEPARATOR, partTextPieces, sliceOfPieces } from "../text/documents.ts";
import type { HitResult, MessageResult, ScoredDoc } from "../types.ts";
import { snippets, type Mark } from "../text/snippets.ts";
import type { ParsedQuery } from "../text/query.ts";
import type { SearchTuning } from "../tuning.ts";
import { intentBoost, intentBound } from "./intent-boost.ts";
import { compoundBoost, compoundBound } from "./compound.ts";
import { toolChunkWeight } from "./plain-question.ts";

// A message's score reads a share (the tuning's spread, tuning.ts) of its next few parts, a part's of its next
// few chunks. A compaction summary weighs less (tuning.ts's summaryWeight) than the messages it
// restates: the facts it holds were stated first in the session, where a search should find them;
// alone, it is still found.

/** How a result's hits and snippets are made. */
export interface HitOptions {
  maxHits: number;
  maxSnippets: number;
  snippetChars: number;
  /** Where the query matches a chunk's text, for snippets. */
  marks(text: string, doc: ScoredDoc): Mark[];
}

/** A message's matching chunks and its score. */
export interface Group {
  message: HistoryMessage;
  docs: ScoredDoc[];
  score: number;
}

/**
 * A part's score: its best chunk's score plus a share of its next few's (summed in `others`),
 * spread over all its `matched` chunks holding a query term. Its chunks are cuts of one text: one
 * matching in many of them is long, not more relevant (an 800 KB diff holds every word somewhere),
 * while a long answer whose few chunks agree keeps some.
 */
function spreadScore(best: number, others: number, matched: number, tuning: SearchTuning): number {
  return best + (tuning.spread.otherShare * others) / matched;
}

/**
 * A message's score from its parts' scores (bestPartScores), best first: the best plus a share
 * of the next few (a thought, the command it ran and the output agreeing).
 */
export function messageScore(scores: readonly number[], tuning: SearchTuning): number {
  let score = scores[0]!;
  const { otherShare, othersCounted } = tuning.spread;
  for (let i = 1; i < scores.length && i <= othersCounted; i++) score += otherShare * scores[i]!;
  return score;
}

/**
 * The most messageScore of bestPartScores gives a message whose chunks score `best` at most and
 * `sum` in all: a part scores at most its best chunk plus otherShare of its others, a message its
 * best part plus otherShare of the others, so (otherShare ≤ 1) at most its best chunk plus
 * otherShare of all the others.
 */
export function messageScoreMost(best: number, sum: number, tuning: SearchTuning): number {
  const share = tuning.spread.otherShare;
  return share <= 1 ? best + share * (sum - best) : share * share * sum;
}

/** How many of a message's best parts messageScore reads, and of a part's best chunks a part's score reads. */
export function messageScoreParts(tuning: SearchTuning): number {
  return tuning.spread.othersCounted + 1;
}

/** The scores of a message's best messageScoreParts() parts (spreadScore), best first, from its chunks sorted best first. */
export function bestPartScores(chunks: readonly { score: number; partId: string | number }[], tuning: SearchTuning): number[] {
  // Chunks come best first: a part's first chunk is its best. No map: a message has few parts.
  // Ranking calls this for every candidate message of a search: only the result is allocated.
  const { parts, best, others, matched } = partScratch;
  const counted = tuning.spread.othersCounted;
  let count = 0;
  for (const chunk of chunks) {
    let p = 0;
    while (p < count && parts[p] !== chunk.partId) p++;
    if (p === count) {
      parts[count] = chunk.partId;
      best[count] = chunk.score;
      others[count] = 0;
      matched[count++] = 1;
      continue;
    }
    if (matched[p]! <= counted) others[p]! += chunk.score;
    matched[p]!++;
  }
  const scores = new Array<number>(count);
  for (let p = 0; p < count; p++) {
    scores[p] = spreadScore(best[p]!, others[p]!, matched[p]!, tuning);
    parts[p] = ""; // holds no part id past the call
  }
  sortDescending(scores, itself);
  if (scores.length > counted + 1) scores.length = counted + 1;
  return scores;
}

/**
 * bestPartScores's working lists, per part of the message: its id, its best chunk's score, its
 * next chunks' scores, its chunk count. Written by index and never shortened (in V8 a length set
 * to 0 frees the backing store), so they keep their room from call to call.
 */
const partScratch = { parts: [] as Array<string | number>, best: [] as number[], others: [] as number[], matched: [] as number[] };

const itself = (value: number): number => value;
const scoreOf = (item: { score: number }): number => item.score;
/** Up to this length a list is sorted by insertion. */
const INSERTION_SORT_MAX = 16;

/**
 * Sorts `items` by `value`, highest first, keeping equal items in their order, as a stable sort
 * does. Short lists by insertion: Array.prototype.sort allocates its work state on every call
 * (hundreds of bytes in V8), and ranking sorts once or twice per candidate message, most of
 * them a handful of chunks (a cold project search ranks some 20,000).
 */
function sortDescending<T>(items: T[], value: (item: T) => number): void {
  if (items.length > INSERTION_SORT_MAX) {
    items.sort((a, b) => value(b) - value(a));
    return;
  }
  for (let i = 1; i < items.length; i++) {
    const item = items[i]!;
    const v = value(item);
    let j = i;
    for (; j > 0 && value(items[j - 1]!) < v; j--) items[j] = items[j - 1]!;
    items[j] = item;
  }
}

function groupScore(group: Group, tuning: SearchTuning): number {
  const docs = group.docs;
  let score: number;
  // One chunk: its score is the message's (bestPartScores and messageScore leave it as it is).
  if (docs.length === 1) score = docs[0]!.score;
  else {
    sortDescending(docs, scoreOf);
    const best = bestPartScores(docs, tuning);
    score = messageScore(best, tuning);
  }
  return isCompactionSummary(group.message) ? score * tuning.summaryWeight : score;
}

/** Higher score first; on a tie the newer message. */
export function compareResults(a: { score: number; message: HistoryMessage }, b: { score: number; message: HistoryMessage }): number {
  if (Math.abs(a.score - b.score) > 1e-9 * Math.max(1, Math.abs(a.score))) return b.score - a.score;
  const at = a.message.created ?? 0;
  const bt = b.message.created ?? 0;
  if (at !== bt) return bt - at;
  return a.message.id < b.message.id ? 1 : a.message.id > b.message.id ? -1 : 0;
}

/**
 * Whether documents the index gave for its best `asked` messages (scored as the index scores them,
 * best first) hold every message that can reach the ranking's first `depth`: one it left out
 * scores at most the lowest it gave before the boosts (the tool and summary weights only lower a
 * score), and must be beaten by the depth-th even boosted as much as any can be.
 */
export function indexHoldsDepth(docs: readonly ScoredDoc[], asked: number, depth: number, parsed: ParsedQuery): boolean {
  const byMessage = new Map<string, ScoredDoc[]>();
  for (const doc of docs) {
    const held = byMessage.get(doc.message.id);
    if (held) held.push(doc);
    else byMessage.set(doc.message.id, [doc]);
  }
  if (byMessage.size < asked) return true;
  const toolWeight = toolChunkWeight(parsed);
  const { tuning } = parsed;
  let lowest = Number.POSITIVE_INFINITY;
  const finals: number[] = [];
  for (const held of byMessage.values()) {
    const message = held[0]!.message;
    // As the index scored it: no weight; and as the ranking will (candidateGroups).
    lowest = Math.min(lowest, groupScore({ message, docs: held.slice(), score: 0 }, tuning) / (isCompactionSummary(message) ? tuning.summaryWeight : 1));
    const weighted = toolWeight === 1 ? held.slice() : held.map((doc) => ({ ...doc, score: doc.score * (doc.type === "tool" ? toolWeight : 1) }));
    finals.push(groupScore({ message, docs: weighted, score: 0 }, tuning));
  }
  finals.sort((a, b) => b - a);
  const floor = finals[depth - 1];
  if (floor === undefined) return false;
  return beatenBy(lowest * maxBoost(parsed), floor);
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

/** Where a tool chunk's output starts in its text (after the call and the separator); none when it holds no output. */
function outputStart(chunk: ScoredDoc, text: string): number | undefined {
  if (chunk.type !== "tool") return undefined;
  const from = chunk.input ? chunk.input + CALL_OUTPUT_SEPARATOR.length : 0;
  return from < text.length ? from : undefined;
}

function buildHits(group: Group, options: HitOptions, textOf: (doc: ScoredDoc) => string): { hits: HitResult[]; remain: number } {
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
      found.push(...snippets(text, options.marks(text, chunk), options.snippetChars, options.maxSnippets - found.length, outputStart(chunk, text)));
    }
    const hit: HitResult = { type: first.type, partId: first.partId, snippets: found };
    if (first.tool !== undefined) hit.tool = first.tool;
    hits.push(hit);
  }
  return { hits, remain: Math.max(0, ordered.length - options.maxHits) };
}

/**
 * A session's candidate messages: its chunks grouped by message, scored before the boosts, every
 * one, best first. Candidates boosts them lazily, only while one can still place, so the ranking
 * is the same at any depth and pages of it never overlap or miss a message. (A pool of the best
 * limit × 3 + 20 was cut here before: on the eval every candidate ranked alike, search-notes.md.)
 * A tool part's chunks first weigh what the query's form says (plain-question.ts).
 */
export function candidateGroups(docs: readonly ScoredDoc[], tuning: SearchTuning, parsed?: ParsedQuery): Group[] {
  const byMessage = new Map<string, Group>();
  const toolWeight = toolChunkWeight(parsed);
  for (const doc of docs) {
    if (toolWeight !== 1 && doc.type === "tool") doc.score *= toolWeight;
    const group = byMessage.get(doc.message.id);
    if (group) group.docs.push(doc);
    else byMessage.set(doc.message.id, { message: doc.message, docs: [doc], score: 0 });
  }
  const all = [...byMessage.values()];
  for (const group of all) group.score = groupScore(group, tuning);
  return all.sort(compareResults);
}

/**
 * The most the boosts can raise a message's score (each boost's own maximum, for the boosts the
 * query can get): a message's score is a sum of its chunks' scores with positive weights, so it
 * grows at most as much as its chunks do.
 */
export function maxBoost(parsed: ParsedQuery | undefined): number {
  if (parsed === undefined) return 1;
  return compoundBound(parsed) * intentBound(parsed);
}

/**
 * The most the boosts can raise a message, from what the chunks boostGroup looks at hold (their
 * terms' counts, type and input): a chunk without the words a boost looks for cannot get it, so
 * most candidates of a common-word query cannot rise at all, and need not be read to be ranked
 * (rank/candidates.ts). maxBoost without the counts.
 */
export function groupBoostMost(group: Group, parsed: ParsedQuery | undefined): number {
  const most = maxBoost(parsed);
  if (most === 1 || parsed === undefined) return 1;
  const checked = Math.min(group.docs.length, parsed.tuning.boostedChunks);
  let best = 1;
  for (let i = 0; i < checked && best < most; i++) {
    const doc = group.docs[i]!;
    if (!doc.tfs) return most;
    const boost = chunkBoostHeld(parsed, doc, doc.tfs);
    if (boost > best) best = boost;
  }
  return best;
}

/**
 * The most the boosts can raise a chunk holding the query terms counted in `tfs`; `doc` its type
 * and input, undefined when not known.
 */
export function chunkBoostHeld(parsed: ParsedQuery, doc: Pick<ScoredDoc, "type" | "input"> | undefined, tfs: readonly number[]): number {
  return compoundBound(parsed, tfs) * intentBound(parsed, doc);
}

/** Applies the boosts to a candidate message and scores it again. */
export function boostGroup(group: Group, parsed: ParsedQuery | undefined, textOf: (doc: ScoredDoc) => string): void {
  if (maxBoost(parsed) === 1 || parsed === undefined) return;
  // groupScore left the docs best first.
  const checked = Math.min(group.docs.length, parsed.tuning.boostedChunks);
  for (let i = 0; i < checked; i++) {
    const doc = group.docs[i]!;
    const text = textOf(doc);
    doc.score *= compoundBoost(parsed, text) * intentBoost(parsed, doc, text);
  }
  group.score = groupScore(group, parsed.tuning);
}

const MARGIN = 1e-6;

/** Whether a message scoring at most `bound` sorts after one scoring `score`, whatever else it holds. */
export function beatenBy(bound: number, score: number): boolean {
  return score - bound > MARGIN * Math.max(1, Math.abs(score));
}

/** A ranked message with its hits and snippets. */
export function messageResult(group: Group, options: HitOptions, textOf: (doc: ScoredDoc) => string): MessageResult {
  const { hits, remain } = buildHits(group, options, textOf);
  return { message: group.message, score: group.score, hits, remainHits: remain };
}
