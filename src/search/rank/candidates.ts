// One session's candidate messages, boosted only as far as a message can still reach the results
// asked for. The boosts (compound, intent) read each candidate's text and cost most of a
// ranking; a project search ranks hundreds of sessions for ten results. The boosts raise a
// message's score at most groupBoostMost times (rank.ts: what its chunks hold allows), so a
// message whose score before the boosts, times that, is below the k-th best boosted score can
// never pass it: the first k are then exact without boosting the rest. Candidates are boosted
// highest reachable score first, which is not always the order before the boosts. A candidate
// ranked from the projection (collect/projected-ranking.ts) holds no text until it is resolved: its
// message is read from the store just before its boosts, or, when the boosts cannot raise it,
// only if it is returned (ready), so only the candidates that can still place are read.

import { BinaryHeap } from "../../util/binary-heap.ts";
import { maybeYield } from "../../util/scheduler.ts";
import type { ScoredDoc } from "../types.ts";
import type { ParsedQuery } from "../text/query.ts";
import { insertBest } from "../../util/best.ts";
import type { MessageResult } from "../types.ts";
import { beatenBy, boostGroup, compareResults, groupBoostMost, messageResult, type Group, type HitOptions } from "./rank.ts";

/**
 * A session's candidates as topAcross and rankSessions rank them: Candidates, or one ranked from
 * the projection before its chunks are read (collect/projected-ranking.ts), which holds a bound alone.
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
  /**
   * Reads a candidate boosted so far whose message was not read (the boosts could not raise it),
   * before it is returned; false when it is gone from the store (it is then dropped).
   */
  ready(group: Group): Promise<boolean>;
  result(group: Group): MessageResult;
}

/**
 * Scores this close are ties to compareResults (1e-9): a bound must clear the k-th score by more
 * than that, and more than rounding can add to a boosted score.
 */
export class Candidates implements RankedCandidates {
  /** The candidates' ranks before the boosts, by highest reachable score first (on a tie, by rank). */
  private readonly order: number[];
  /** Each candidate's highest reachable score, in `order`: never rising down the list. */
  private readonly bounds: number[];
  /** The most the boosts can raise each candidate, by rank (groupBoostMost). */
  private readonly most: number[];
  /** Candidates order[0, boosted) have their boosts. */
  private boosted = 0;
  /** The boosted candidates, best first. */
  private readonly best: Group[] = [];
  /** Boosted candidates whose message is not read yet (resolve): the boosts could not raise them. */
  private readonly unread = new Set<Group>();

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
    this.most = groups.map((group) => groupBoostMost(group, parsed));
    const reachable = groups.map((group, rank) => group.score * this.most[rank]!);
    this.order = groups.map((_, rank) => rank).sort((a, b) => reachable[b]! - reachable[a]! || a - b);
    this.bounds = this.order.map((rank) => reachable[rank]!);
  }

  /** Candidates of nothing (a session that held none after all). */
  static none(): Candidates {
    return new Candidates([], undefined, () => "", { maxHits: 0, maxSnippets: 0, snippetChars: 0, marks: () => [] });
  }

  /** The highest score a candidate not yet boosted can reach; -Infinity when none is left. */
  get bound(): number {
    return this.boosted < this.groups.length ? this.bounds[this.boosted]! : -Infinity;
  }

  /** Boosts the next candidate (by highest reachable score) and returns it; undefined when none is left or it was dropped. */
  async next(): Promise<Group | undefined> {
    if (this.boosted >= this.order.length) return undefined;
    const rank = this.order[this.boosted++]!;
    const group = this.groups[rank]!;
    if (this.most[rank] === 1) {
      // Its score is final unboosted: its message is read only if it is returned (ready).
      if (this.resolve) this.unread.add(group);
    } else {
      if (this.resolve && !(await this.resolve(group))) return undefined;
      boostGroup(group, this.parsed, this.textOf);
    }
    insertBest(this.best, group, Infinity, compareResults);
    return group;
  }

  async ready(group: Group): Promise<boolean> {
    if (!this.unread.delete(group)) return true;
    if (await this.resolve!(group)) return true;
    this.best.splice(this.best.indexOf(group), 1);
    return false;
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
  for (;;) {
    const best = await rankAcross(sessions, k);
    // A candidate gone from the store since it was ranked is dropped: the ranking goes on without it.
    let held = true;
    for (const { key, group } of best) if (!(await sessions.get(key)!.ready(group))) held = false;
    if (held) return best;
  }
}

/** topAcross's first `k`, some of them maybe not read (ready). */
async function rankAcross<K>(sessions: ReadonlyMap<K, RankedCandidates>, k: number): Promise<Array<{ key: K; group: Group }>> {
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
