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

/** How many of a message's best parts messageScore reads, and of a part's best chunks a part's score reads. */
export function messageScoreParts(tuning: SearchTuning): number {
  return tuning.spread.othersCounted + 1;
}

/**
 * The scores of a message's best messageScoreParts() parts (spreadScore), best first, from its chunks
 * order[from, to) sorted best first: chunk c scores score[c] and is in part part[c].
 */
export function bestPartScores(
  score: ArrayLike<number>,
  part: ArrayLike<string | number>,
  order: ArrayLike<number>,
  from: number,
  to: number,
  tuning: SearchTuning,
): number[] {
  // Chunks come best first: a part's first chunk is its best. No map: a message has few parts.
  // Ranking calls this for every candidate message of a search: only the result is allocated.
  const { parts, best, others, matched } = partScratch;
  const counted = tuning.spread.othersCounted;
  let count = 0;
  for (let i = from; i < to; i++) {
    const chunk = order[i]!;
    const id = part[chunk]!;
    let p = 0;
    while (p < count && parts[p] !== id) p++;
    if (p === count) {
      parts[count] = id;
      best[count] = score[chunk]!;
      others[count] = 0;
      matched[count++] = 1;
      continue;
    }
    if (matched[p]! <= counted) others[p]! += score[chunk]!;
    matched[p]!++;
  }
  const scores = new Array<number>(count);
  for (let p = 0; p < count; p++) {
    scores[p] = spreadScore(best[p]!, others[p]!, matched[p]!, tuning);
    parts[p] = ""; // holds no part id past the call
  }
  sortDescending(scores, 0, count);
  if (scores.length > counted + 1) scores.length = counted + 1;
  return scores;
}

/**
 * bestPartScores's working lists, per part of the message: its id, its best chunk's score, its
 * next chunks' scores, its chunk count. Written by index and never shortened (in V8 a length set
 * to 0 frees the backing store), so they keep their room from call to call.
 */
const partScratch = { parts: [] as Array<string | number>, best: [] as number[], others: [] as number[], matched: [] as number[] };

/** Up to this length a list is sorted by insertion. */
const INSERTION_SORT_MAX = 16;

/**
 * Sorts `items` by `value`, highest first, keeping equal items in their order, as a stable sort
 * does (items are numbers: a tie goes to the lower, as a run of chunk indexes is in order). Short
 * lists by insertion: a sort allocates its work state on every call (hundreds of bytes in V8),
 * and ranking sorts once or twice per candidate message, most of them a handful of chunks (a
 * cold project search ranks some 20,000).
 */
function sortDescending(items: number[] | Int32Array, from: number, to: number, key?: ArrayLike<number>): void {
  const value = (item: number): number => (key === undefined ? item : key[item]!);
  if (to - from > INSERTION_SORT_MAX) {
    const sorted = (Array.prototype.slice.call(items, from, to) as number[]).sort((a, b) => value(b) - value(a) || a - b);
    for (let i = 0; i < sorted.length; i++) items[from + i] = sorted[i]!;
    return;
  }
  for (let i = from + 1; i < to; i++) {
    const item = items[i]!;
    const v = value(item);
    let j = i;
    for (; j > from && value(items[j - 1]!) < v; j--) items[j] = items[j - 1]!;
    items[j] = item;
  }
}

/** Chunks grouped by message (groupChunks): message r's chunks are order[ends[r - 1], ends[r]), best first, and it scores scores[r]. */
export interface MessageRuns {
  order: Int32Array;
  ends: Int32Array;
  scores: Float64Array;
}

/**
 * Groups chunks [0, n) into messages and parts, and scores each message as ranking does before
 * its weights and boosts (bestPartScores, messageScore): chunk i is in message message[i] (0 ≤ it
 * < messages), part part[i], and scores score[i]. Messages come in their numbers' order, each
 * message's chunks best first, equal ones in their order.
 */
export function groupChunks(
  n: number,
  messages: number,
  message: ArrayLike<number>,
  part: ArrayLike<string | number>,
  score: ArrayLike<number>,
  tuning: SearchTuning,
): MessageRuns {
  // A counting sort by message keeps each message's chunks in their order.
  const next = new Int32Array(messages + 1);
  for (let i = 0; i < n; i++) next[message[i]! + 1]!++;
  let runs = 0;
  for (let m = 0; m < messages; m++) {
    if (next[m + 1]! > 0) runs++;
    next[m + 1]! += next[m]!;
  }
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[next[message[i]!]!++] = i;
  const ends = new Int32Array(runs);
  const scores = new Float64Array(runs);
  for (let r = 0, from = 0; from < n; r++) {
    const to = next[message[order[from]!]!]!;
    // One chunk: its score is the message's (bestPartScores and messageScore leave it as it is).
    if (to - from === 1) scores[r] = score[order[from]!]!;
    else {
      sortDescending(order, from, to, score);
      scores[r] = messageScore(bestPartScores(score, part, order, from, to, tuning), tuning);
    }
    ends[r] = from = to;
  }
  return { order, ends, scores };
}

/** groupChunks over `docs`, each scored by `score`: messages numbered in the order of their first doc. */
function groupDocs(docs: readonly ScoredDoc[], tuning: SearchTuning, score: (doc: ScoredDoc) => number): MessageRuns & { messages: HistoryMessage[] } {
  const numbers = new Map<string, number>();
  const messages: HistoryMessage[] = [];
  const message = Int32Array.from(docs, (doc) => {
    let number = numbers.get(doc.message.id);
    if (number === undefined) numbers.set(doc.message.id, (number = messages.push(doc.message) - 1));
    return number;
  });
  return {
    messages,
    ...groupChunks(
      docs.length,
      messages.length,
      message,
      docs.map((doc) => doc.partId),
      docs.map(score),
      tuning,
    ),
  };
}

const scoreOf = (doc: ScoredDoc): number => doc.score;

/** A message's score from its chunks' (groupChunks), a compaction summary's weighed less. */
function weighed(message: HistoryMessage, score: number, tuning: SearchTuning): number {
  return isCompactionSummary(message) ? score * tuning.summaryWeight : score;
}

/** Scores `group` (groupChunks), leaving its docs best first. */
function groupScore(group: Group, tuning: SearchTuning): number {
  const docs = group.docs;
  const { order, scores } = groupDocs(docs, tuning, scoreOf);
  const sorted = Array.from(order, (i) => docs[i]!);
  for (let i = 0; i < sorted.length; i++) docs[i] = sorted[i]!;
  return weighed(group.message, scores[0]!, tuning);
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
  const { tuning } = parsed;
  // As the index scored them: no weight; and as the ranking will (candidateGroups).
  const unweighted = groupDocs(docs, tuning, scoreOf);
  if (unweighted.messages.length < asked) return true;
  const toolWeight = toolChunkWeight(parsed);
  const lowest = unweighted.scores.reduce((low, score) => Math.min(low, score), Number.POSITIVE_INFINITY);
  const { messages, scores } = toolWeight === 1 ? unweighted : groupDocs(docs, tuning, (doc) => doc.score * (doc.type === "tool" ? toolWeight : 1));
  const finals = messages.map((message, r) => weighed(message, scores[r]!, tuning)).sort((a, b) => b - a);
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
  const toolWeight = toolChunkWeight(parsed);
  if (toolWeight !== 1) for (const doc of docs) if (doc.type === "tool") doc.score *= toolWeight;
  const { messages, order, ends, scores } = groupDocs(docs, tuning, scoreOf);
  const all = messages.map(
    (message, r): Group => ({
      message,
      docs: Array.from(order.subarray(ends[r - 1] ?? 0, ends[r]), (i) => docs[i]!),
      score: weighed(message, scores[r]!, tuning),
    }),
  );
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
