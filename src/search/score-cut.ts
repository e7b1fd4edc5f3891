// The score-bound cut of a many-session keyword search: the sessions the projection describes are
// read in decreasing order of the most any of their messages can score (rank/score-bound.ts), and
// reading stops once `limit` messages are held whose k-th score beats the next session's bound.
// The sessions left then provably cannot enter the answer: they count as searched. Scores held
// are final (each session's first `limit` boosted: Candidates.top; on the heavy store this read
// about half as many sessions as the scores before the boosts, docs/search-notes.md), against the
// statistics the bounds were made with: those of the sessions read before the cut (the ones the projection
// does not describe as they are, the caller's own among them) and the projection's of the others,
// which are a full scan's as long as every session read counts as projected; one that does not
// (or fails, or runs out of time) ends the cut, and every session left is read.
// The cut applies only when every query word is found in the scope: a word found nowhere sends
// the search to its typo pass, which must see every session holding the others.

import type { SessionInfo } from "../history/types.ts";
import type { CollectionStats } from "./rank/bm25.ts";
import { beatenBy, type Candidates } from "./rank/candidates.ts";
import { ScoreBound } from "./rank/score-bound.ts";
import type { ParsedQuery } from "./text/query.ts";
import { unmatchedWords } from "./text/typos.ts";
import type { ProjectedTerms } from "./types.ts";
import { insertBest } from "../util/best.ts";
import type { CollectedSession } from "./session-search.ts";

export class ScoreCut {
  /** The best `limit` final scores (the boosts' included) of the messages read, best first. */
  private readonly best: number[] = [];
  /** Set when a session read does not count as projected: the bounds may not hold. */
  private broken = false;

  private constructor(
    private readonly parsed: ParsedQuery,
    private readonly limit: number,
    /** The scope's statistics: the bounds' and the scores'. */
    readonly shared: CollectionStats,
  ) {}

  /** The cut for `shared` (sessions read, projected, left unread), or undefined when a query word is found nowhere. */
  static over(parsed: ParsedQuery, limit: number, shared: CollectionStats): ScoreCut | undefined {
    return unmatchedWords(parsed, shared.df).length > 0 ? undefined : new ScoreCut(parsed, limit, shared);
  }

  /** `sessions` (each described by `projected`) by decreasing bound, with their bounds; on a tie in the order given. */
  order(sessions: readonly SessionInfo[], projected: ReadonlyMap<string, ProjectedTerms>): Array<{ session: SessionInfo; bound: number }> {
    const bound = new ScoreBound(this.parsed, this.shared);
    return sessions
      .map((session, i) => ({ session, bound: bound.of(projected.get(session.id)!), i }))
      .sort((a, b) => b.bound - a.bound || a.i - b.i)
      .map(({ session, bound }) => ({ session, bound }));
  }

  /** A projected session read (undefined: it failed): the cut ends unless it counts as `projected` says. */
  check(collected: CollectedSession | undefined, projected: ProjectedTerms): void {
    const stats = collected?.stats;
    const same =
      collected !== undefined &&
      !collected.timedOut &&
      stats !== undefined &&
      stats.docs === projected.docs &&
      stats.length === projected.length &&
      stats.df.every((df, t) => df === projected.df[t]);
    if (!same) this.broken = true;
  }

  /** A session read: its candidates, scored against `shared` (its first `limit` are boosted here). */
  add(candidates: Candidates): void {
    for (const group of candidates.top(this.limit)) insertBest(this.best, group.score, this.limit, (a, b) => b - a);
  }

  /** Whether no message of a session bounded by `bound` (nor of any bounded lower) can enter the answer. */
  excludes(bound: number): boolean {
    return !this.broken && this.best.length >= this.limit && beatenBy(bound, this.best[this.limit - 1]!);
  }
}
