// A session's candidate messages ranked from what the projection keeps of it (session-terms.ts),
// without reading it: every chunk holding a query term becomes the scored document a scan of the
// session would hand to ranking (its message, part, range, and per query term the weighted
// frequency), and the engine's own rescore and candidateGroups score them, so each candidate's
// score before the boosts is the one reading the session gives. The boosts and snippets need the
// messages' text: a candidate is read from the store only when the boosts can raise it and it
// can still place, or when it is returned (rank/candidates.ts's resolve and ready), one message at
// a time. And a session's chunk table is read only when one of its messages can place: until
// then it is ranked by bounds made from its postings alone (holderBounds), which most sessions of
// a common-word search never pass.

import { CONTINUATION_SENTENCE } from "../../history/summaries.ts";
import type { HistoryMessage } from "../../history/types.ts";
import { insertBest, insertBestScore } from "../../util/best.ts";
import { type CollectionStats, MAX_COUNTED_TF, termScore } from "../rank/bm25.ts";
import type { RankedCandidates } from "../rank/candidates.ts";
import { candidateGroups, chunkBoostHeld, type Group, messageScoreParts } from "../rank/rank.ts";
import { type ChunkScorer, rescore } from "../rank/rescore.ts";
import type { SearchTuning } from "../tuning.ts";
import type { ParsedQuery } from "../text/query.ts";
import {
  CHUNK_CONTINUE,
  CHUNK_HOST_WRITTEN,
  CHUNK_STRIDE,
  CHUNK_SUMMARY,
  type ChunkMessage,
  type ChunkTable,
  type DocFilter,
  type MessageResult,
  type ProjectedHolder,
  type ScoredDoc,
  TERM_CHUNK_STRIDE,
} from "../types.ts";

/**
 * A message as ranking reads it (role, time, id, summary and host flags), with no parts but one
 * that makes a continuation summary read as one: its text is never read.
 */
function messageStub(sessionId: string, { id, role, created, flags }: ChunkMessage): HistoryMessage {
  const message: HistoryMessage = { id, sessionId, role, parts: [] };
  if (created !== 0) message.created = created;
  if (flags & CHUNK_HOST_WRITTEN) message.hostWritten = true;
  if (flags & CHUNK_CONTINUE) message.compactionContinue = true;
  if (flags & CHUNK_SUMMARY) {
    if (role === "assistant") message.summary = true;
    else message.parts.push({ kind: "text", id: "", text: CONTINUATION_SENTENCE });
  }
  return message;
}

export interface ProjectedGroups {
  /** Best first before the boosts; their messages are stubs until resolved. */
  groups: Group[];
  /** Each candidate message's turn number. */
  turns: Map<string, number>;
}

/**
 * One session's candidate messages from its kept chunks: `termChunks[t]` the chunks of query
 * term t in it (TERM_CHUNK_STRIDE), `own` its documents, length and per-term document counts, `shared` the
 * scope's statistics.
 */
export function projectedGroups(
  sessionId: string,
  table: ChunkTable,
  termChunks: ReadonlyArray<readonly number[]>,
  parsed: ParsedQuery,
  own: CollectionStats,
  shared: CollectionStats,
  accept: DocFilter = () => true,
): ProjectedGroups {
  const tfsByChunk = new Map<number, number[]>();
  termChunks.forEach((list, t) => {
    for (let i = 0; i < list.length; i += TERM_CHUNK_STRIDE) {
      let tfs = tfsByChunk.get(list[i]!);
      if (!tfs) tfsByChunk.set(list[i]!, (tfs = new Array<number>(termChunks.length).fill(0)));
      tfs[t] = list[i + 1]!;
    }
  });
  const messages = new Map<number, HistoryMessage>();
  const turns = new Map<string, number>();
  const docs: ScoredDoc[] = [];
  const chunks = table.chunks;
  // In the session's order, as a scan hands them over.
  for (const chunk of [...tfsByChunk.keys()].sort((a, b) => a - b)) {
    const at = chunk * CHUNK_STRIDE;
    const m = chunks[at]!;
    let message = messages.get(m);
    if (!message) {
      const kept = table.message(m);
      messages.set(m, (message = messageStub(sessionId, kept)));
      turns.set(kept.id, kept.turn);
    }
    const part = table.part(chunks[at + 1]!);
    if (!accept(message, part.type, part.tool)) continue;
    const doc: ScoredDoc = { message, partId: part.id, type: part.type, start: chunks[at + 2]!, end: chunks[at + 3]!, score: 0, tfs: tfsByChunk.get(chunk)! };
    if (part.tool !== undefined) doc.tool = part.tool;
    const input = chunks[at + 4]!;
    if (input > 0) doc.input = input;
    docs.push(doc);
  }
  rescore(docs, parsed, shared, own, () => {
    throw new Error("a projected chunk's counts are kept: its text is never read to score it");
  });
  return { groups: candidateGroups(docs, parsed.tuning, parsed), turns };
}

/** A holder's own statistics for `parsed`'s terms. */
export function holderStats(holder: ProjectedHolder): CollectionStats {
  return { docs: holder.docs, length: holder.length, df: holder.df };
}

/**
 * Gives a projected candidate its message as the store holds it (`load`); false when the message
 * is gone or no longer holds a chunk's part: the candidate is dropped.
 */
export async function resolveGroup(group: Group, load: (messageId: string) => Promise<HistoryMessage | undefined>): Promise<boolean> {
  const message = await load(group.message.id);
  if (!message) return false;
  for (const doc of group.docs) if (!message.parts.some((part) => part.id === doc.partId)) return false;
  group.message = message;
  for (const doc of group.docs) doc.message = message;
  return true;
}

/**
 * The most one message of a session scores from one term (`chunks`: its chunk list there,
 * TERM_CHUNK_STRIDE), at idf 1 and before the boosts, its lengths against the session's average:
 * over its messages, the best chunk's termScore plus otherShare of its next ones', as
 * holderBounds weighs chunks. The projection stores it with each posting; a chunk's score is a
 * sum over terms and a message's weighs its best chunk and its next ones with shares that are
 * not negative, so a message scores at most the sum over terms of these times termFactors'.
 */
export function termCeiling(chunks: readonly number[], avgLength: number, tuning: SearchTuning): number {
  // Most terms of a session are in one chunk: its score is the bound.
  if (chunks.length === TERM_CHUNK_STRIDE) return termScore(Math.min(chunks[1]!, MAX_COUNTED_TF), 1, chunks[2]!, avgLength, tuning);
  const counted = messageScoreParts(tuning) ** 2;
  // A message's best `counted` scores, best first, in a reused array: this runs for every term of
  // every session a projection counts (insertBest's comparator calls were a fifth of the time).
  if (ceilingScratch.length < counted) ceilingScratch = new Float64Array(counted);
  const scores = ceilingScratch;
  let held = 0;
  let most = 0;
  let message = -1;
  for (let i = 0; i < chunks.length; i += TERM_CHUNK_STRIDE) {
    if (chunks[i + 3] !== message) {
      if (held > 0) most = Math.max(most, spreadBound(scores, tuning, held));
      held = 0;
      message = chunks[i + 3]!;
    }
    held = insertBestScore(scores, 0, held, counted, termScore(Math.min(chunks[i + 1]!, MAX_COUNTED_TF), 1, chunks[i + 2]!, avgLength, tuning));
  }
  if (held > 0) most = Math.max(most, spreadBound(scores, tuning, held));
  return most;
}

let ceilingScratch = new Float64Array(0);

/**
 * The most any message of a holder scores after the boosts, from its stored term ceilings alone
 * (`factors`: termFactors for it): at least holderBounds' first, and made without decoding its
 * chunk lists, so the holders of a common word are ordered before any of them is.
 */
export function holderCeiling(holder: ProjectedHolder, parsed: ParsedQuery, factors: readonly number[]): number {
  let sum = 0;
  for (let t = 0; t < factors.length; t++) sum += holder.ceilings[t]! * factors[t]!;
  // The boosts read which terms a chunk holds: the most is a chunk holding every term the session does.
  return sum * chunkBoostHeld(parsed, undefined, holder.df) * summaryRaise(parsed.tuning);
}

/**
 * The most a holder's best messages score after the boosts, best first (at most `count`), from
 * its postings alone (`scorers`: chunkScorers against the scope's statistics). Each chunk's score
 * is raised as much as the boosts can raise a chunk holding its terms (chunkBoostHeld); a
 * message's score weighs one chunk whole and at most (othersCounted + 1)² − 1 others by
 * otherShare or less (rank.ts spreadScore, messageScore), so it is at most its best chunk's plus otherShare
 * of its next best ones'. Times the summary weight when it raises; the tool weight only lowers a
 * score (rank.ts). The i-th best message after the boosts
 * scores at most the i-th of these (0 past its last message). Empty when it holds no chunk.
 */
export function holderBounds(holder: ProjectedHolder, parsed: ParsedQuery, scorers: (own: CollectionStats) => ChunkScorer, count: number): number[] {
  const score = scorers(holderStats(holder));
  const lists = holder.termChunks();
  const terms = lists.length;
  const best: number[] = [];
  // The message's chunk scores that can count, best first.
  const chunks: number[] = [];
  const counted = messageScoreParts(parsed.tuning) ** 2;
  const closeMessage = () => {
    if (chunks.length === 0) return;
    insertBest(best, spreadBound(chunks, parsed.tuning), count, highestFirst);
    chunks.length = 0;
  };
  // The terms' chunk lists merged: each is in chunk order, and chunks are in message order.
  const next = new Array<number>(terms).fill(0);
  const tfs = new Array<number>(terms).fill(0);
  let message = -1;
  for (;;) {
    let chunk = Number.POSITIVE_INFINITY;
    for (let t = 0; t < terms; t++) if (next[t]! < lists[t]!.length && lists[t]![next[t]!]! < chunk) chunk = lists[t]![next[t]!]!;
    if (chunk === Number.POSITIVE_INFINITY) break;
    let length = 0;
    let of = 0;
    for (let t = 0; t < terms; t++) {
      const list = lists[t]!;
      const i = next[t]!;
      if (i < list.length && list[i] === chunk) {
        tfs[t] = list[i + 1]!;
        length = list[i + 2]!;
        of = list[i + 3]!;
        next[t] = i + TERM_CHUNK_STRIDE;
      } else tfs[t] = 0;
    }
    if (of !== message) {
      closeMessage();
      message = of;
    }
    insertBest(chunks, score(tfs, length) * chunkBoostHeld(parsed, undefined, tfs), counted, highestFirst);
  }
  closeMessage();
  const raise = summaryRaise(parsed.tuning);
  const bounds = best.map((bound) => bound * raise);
  // Fewer messages than `count`: the others score nothing.
  if (bounds.length > 0) while (bounds.length < count) bounds.push(0);
  return bounds;
}

const highestFirst = (a: number, b: number) => b - a;

/** The most a message scores from its chunks' scores (best first, not empty): the best one whole, otherShare of the others. */
function spreadBound(scores: ArrayLike<number>, tuning: SearchTuning, count = scores.length): number {
  let others = 0;
  for (let i = 1; i < count; i++) others += scores[i]!;
  return scores[0]! + tuning.spread.otherShare * others;
}

/** A summary's weight when it raises a score; above rounding: the sums here and the engine's are made in other orders. */
function summaryRaise(tuning: SearchTuning): number {
  return Math.max(1, tuning.summaryWeight) * (1 + 1e-9);
}

/**
 * A projected session's candidates, ranked by its ceiling (holderCeiling) until it leads: then by
 * holderBounds (its chunk lists decoded), and once one of them is asked for, `make` ranks them
 * from its chunk table (or, that refused, reads the session).
 */
export class ProjectedCandidates implements RankedCandidates {
  /** holderBounds', once made: as many as a ranking reaches into (reach). */
  private most: readonly number[] | undefined;
  private ranked: RankedCandidates | undefined;
  private making: Promise<RankedCandidates> | undefined;

  constructor(
    private readonly ceiling: number,
    private readonly bounds: () => readonly number[],
    private readonly make: () => Promise<RankedCandidates>,
  ) {}

  get bound(): number {
    if (this.ranked) return this.ranked.bound;
    if (!this.most) return this.ceiling;
    return this.most[0] ?? Number.NEGATIVE_INFINITY;
  }

  /** The first call on a session still ranked by its ceiling makes its bounds and boosts nothing (undefined). */
  async next(): Promise<Group | undefined> {
    if (!this.ranked && !this.most) {
      this.most = this.bounds();
      return undefined;
    }
    return (await this.made()).next();
  }

  settled(k: number): boolean {
    return this.ranked ? this.ranked.settled(k) : this.most?.length === 0;
  }

  async top(k: number): Promise<Group[]> {
    return (await this.made()).top(k);
  }

  /** Before its chunks are read, the i-th candidate can reach the i-th bound (the last one past them), or the ceiling before those. */
  reach(i: number): number {
    if (this.ranked) return this.ranked.reach(i);
    if (!this.most) return Math.max(0, this.ceiling);
    return Math.max(0, this.most[Math.min(i, this.most.length - 1)] ?? 0);
  }

  get boostedSoFar(): readonly Group[] {
    return this.ranked?.boostedSoFar ?? [];
  }

  ready(group: Group): Promise<boolean> {
    return this.ranked ? this.ranked.ready(group) : Promise.resolve(true);
  }

  result(group: Group): MessageResult {
    if (!this.ranked) throw new Error("a projected session's result asked for before its candidates were ranked");
    return this.ranked.result(group);
  }

  private made(): Promise<RankedCandidates> {
    this.making ??= this.make().then((ranked) => (this.ranked = ranked));
    return this.making;
  }
}
