// One session's candidate messages, boosted only as far down as a message can still reach the
// results asked for. The boosts (compound, proximity, intent) read each candidate's text and
// cost most of a ranking; a project search ranks hundreds of sessions for ten results. A boost
// raises a message's score at most maxBoost times (rank.ts), so a message whose score before
// the boosts, times that bound, is below the k-th best boosted score can never pass it: the
// first k are then exact without boosting the rest. A candidate ranked from the projection
// (many/projected-ranking.ts) holds no text until it is resolved: its message is read from the
// store just before its boosts, so only the candidates that can still place are read.

import { BinaryHeap } from "../../util/binary-heap.ts";
import { maybeYield } from "../../util/scheduler.ts";
import type { ScoredDoc } from "../types.ts";
import type { ParsedQuery } from "../text/query.ts";
import { insertBest } from "../../util/best.ts";
import type { MessageResult } from "../types.ts";
import { beatenBy, boostGroup, compareResults, maxBoost, messageResult, type Group, type HitOptions } from "./rank.ts";

/**
 * A session's candidates as topAcross and rankSessions rank them: Candidates, or one ranked from
 * the projection before its chunks are read (many/projected-ranking.ts), which holds a bound alone.
 */
export interface RankedCandidates {
  /** The highest score a candidate not yet boosted can reach; -Infinity when none is left. */
  readonly bound: number;
  /** Boosts the next candidate and returns it; undefined when none is left or it was dropped. */
  next(): Promise<Group | undefined>;
  settled(k: number): boolean;
  top(k: number): Promise<Group[]>;
  reach(i: number): number;
  readonly boostedSoFar: readonly Group[];
  result(group: Group): MessageResult;
}

/**
 * Scores this close are ties to compareResults (1e-9): a bound must clear the k-th score by more
 * than that, and more than rounding can add to a boosted score.
 */
export class Candidates implements RankedCandidates {
  /** Each candidate's highest reachable score (before the boosts × maxBoost at its rank): never rising down the list. */
  private readonly bounds: number[];
  /** Candidates [0, boosted) have their boosts. */
  private boosted = 0;
  /** The boosted candidates, best first. */
  private readonly best: Group[] = [];

  /**
   * `groups`: best first before the boosts (candidateGroups). `resolve`: gives a candidate its
   * message's text before its boosts; false when the message is gone (it is then dropped).
   */
  constructor(
    private readonly groups: readonly Group[],
    private readonly parsed: ParsedQuery | undefined,
    private readonly textOf: (doc: ScoredDoc) => string,
    private readonly options: HitOptions,
    private readonly resolve?: (group: Group) => Promise<boolean>,
  ) {
    this.bounds = groups.map((group, rank) => group.score * maxBoost(parsed, rank));
  }

  /** Candidates of nothing (a session that held none after all). */
  static none(): Candidates {
    return new Candidates([], undefined, () => "", { maxHits: 0, maxSnippets: 0, snippetChars: 0, marks: () => [] });
  }

  /** The highest score a candidate not yet boosted can reach; -Infinity when none is left. */
  get bound(): number {
    return this.boosted < this.groups.length ? this.bounds[this.boosted]! : -Infinity;
  }

  /** Boosts the next candidate (by score before the boosts) and returns it; undefined when none is left or it was dropped. */
  async next(): Promise<Group | undefined> {
    const group = this.groups[this.boosted];
    if (!group) return undefined;
    const rank = this.boosted++;
    if (this.resolve && !(await this.resolve(group))) return undefined;
    boostGroup(group, rank, this.parsed, this.textOf);
    insertBest(this.best, group, Infinity, compareResults);
    return group;
  }

  /** Whether the first `k` candidates after the boosts are known: none left can pass the k-th. */
  settled(k: number): boolean {
    return this.boosted >= this.groups.length || (this.best.length >= k && beatenBy(this.bound, this.best[k - 1]!.score));
  }

  /** The first `k` candidates after the boosts, in order, exactly as if every candidate were boosted. */
  async top(k: number): Promise<Group[]> {
    while (!this.settled(k)) await this.next();
    return this.best.slice(0, k);
  }

  /**
   * The highest score the `i`-th (from 0) candidate after the boosts can reach, given those
   * boosted so far: the i-th of their scores and the others' bounds together, as a candidate not
   * yet boosted scores at most its bound. 0 past the last candidate.
   */
  reach(i: number): number {
    let b = 0;
    let u = this.boosted;
    for (let k = 0; k < i; k++) {
      if (b < this.best.length && (u >= this.groups.length || this.best[b]!.score >= this.bounds[u]!)) b++;
      else u++;
    }
    const boostedScore = this.best[b]?.score ?? 0;
    const unboosted = this.bounds[u] ?? 0;
    return Math.max(boostedScore, unboosted);
  }

  /** The candidates boosted so far, best first. */
  get boostedSoFar(): readonly Group[] {
    return this.best;
  }

  /** A candidate as a result, with its hits and snippets. */
  result(group: Group): MessageResult {
    return messageResult(group, this.options, this.textOf);
  }
}

/**
 * The first `k` candidates over several sessions, in order, with the session each comes from,
 * exactly as if every session were ranked whole: each step boosts the candidate with the highest
 * reachable score, until none left can pass the k-th.
 */
export async function topAcross<K>(sessions: ReadonlyMap<K, RankedCandidates>, k: number): Promise<Array<{ key: K; group: Group }>> {
  const best: Array<{ key: K; group: Group }> = [];
  const compare = (a: { group: Group }, b: { group: Group }) => compareResults(a.group, b.group);
  // Sessions by the highest score they can still reach, on a tie the first listed; one with no
  // candidate left (bound -Infinity) is never taken. Candidates an earlier ranking boosted are
  // no longer behind a bound: they are held from the start.
  const leads = new BinaryHeap<{ key: K; found: RankedCandidates; order: number }>((a, b) => b.found.bound - a.found.bound || a.order - b.order);
  let order = 0;
  for (const [key, found] of sessions) {
    for (const group of found.boostedSoFar) insertBest(best, { key, group }, k, compare);
    if (found.bound > -Infinity) leads.push({ key, found, order: order++ });
  }
  for (;;) {
    const lead = leads.pop();
    if (!lead || (best.length >= k && beatenBy(lead.found.bound, best[k - 1]!.group.score))) return best;
    const group = await lead.found.next();
    if (group) insertBest(best, { key: lead.key, group }, k, compare);
    if (lead.found.bound > -Infinity) leads.push(lead);
    await maybeYield();
  }
}
