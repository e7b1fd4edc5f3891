// The score-bound cut of a many-session keyword search: the sessions the projection describes are
// read in an order its ranking chooses from the most any of their messages can score
// (rank/score-bound.ts), and reading stops once the ranking says no session left can enter the
// answer: the best `limit` messages (history_search: MessageCutRanking) or the best sessions
// (history_sessions: rank/session-cut.ts). The sessions left then provably cannot enter it: they
// count as searched. Scores held are final (each session's best boosted: Candidates.top; on the
// heavy store this read about half as many sessions as the scores before the boosts,
// docs/search-notes.md), against the statistics the bounds were made with: those of the sessions
// read before the cut (the ones the projection does not describe as they are, the caller's own
// among them) and the projection's of the others, which are a full scan's as long as every
// session read counts as projected; one that does not (or fails) ends the cut, and every session
// left is read. One that runs out of time is counted unsearched, and the ranking takes its
// statistics from the projection, as it takes those of the sessions the cut skips: the cut goes
// on, so a partial answer leaves out what the budget did not reach, not every session after it.
// The cut applies only when every query word is found in the scope: a word found nowhere sends
// the search to its typo pass, which must see every session holding the others.

import type { SessionInfo } from "../../history/types.ts";
import type { CollectionStats } from "../rank/bm25.ts";
import type { Candidates } from "../rank/candidates.ts";
import { beatenBy } from "../rank/rank.ts";
import { ScoreBound } from "./score-bound.ts";
import type { ParsedQuery } from "../text/query.ts";
import { unmatchedWords } from "../text/typos.ts";
import type { ProjectedTerms } from "../types.ts";
import { insertBest } from "../../util/best.ts";
import type { CollectedSession } from "../session-search.ts";

/** A session the projection describes, with the most any of its messages can score (rank/score-bound.ts). */
export interface BoundedSession {
  session: SessionInfo;
  bound: number;
}

/**
 * What a score-bound cut (score-cut.ts) ranks: it orders the bounded sessions to read, is given
 * each session read (those read before the cut first), and says when the sessions from a
 * position of its order on can no longer enter the answer. Bounds hold for any order; a good
 * one reads fewer sessions.
 */
export interface CutRanking {
  order(bounded: BoundedSession[]): BoundedSession[];
  add(session: SessionInfo, candidates: Candidates): void;
  excludes(from: number): boolean;
}

export class ScoreCut {
  /** Set when a session read does not count as projected: the bounds may not hold. */
  private broken = false;

  private constructor(
    private readonly parsed: ParsedQuery,
    private readonly ranking: CutRanking,
    /** The scope's statistics: the bounds' and the scores'. */
    readonly shared: CollectionStats,
  ) {}

  /** The cut for `shared` (sessions read, projected, left unread), or undefined when a query word is found nowhere. */
  static over(parsed: ParsedQuery, ranking: CutRanking, shared: CollectionStats): ScoreCut | undefined {
    return unmatchedWords(parsed, shared.df).length > 0 ? undefined : new ScoreCut(parsed, ranking, shared);
  }

  /** `sessions` (each described by `projected`) with their bounds, in the order to read them. */
  order(sessions: readonly SessionInfo[], projected: ReadonlyMap<string, ProjectedTerms>): BoundedSession[] {
    const bound = new ScoreBound(this.parsed, this.shared);
    return this.ranking.order(sessions.map((session) => ({ session, bound: bound.of(projected.get(session.id)!) })));
  }

  /**
   * A projected session read (undefined: it failed): the cut ends unless it counts as `projected`
   * says. One out of time is counted unsearched, its statistics the projection's: the bounds hold.
   */
  check(collected: CollectedSession | undefined, projected: ProjectedTerms): void {
    if (collected?.timedOut) return;
    const stats = collected?.stats;
    const same =
      collected !== undefined &&
      stats !== undefined &&
      stats.docs === projected.docs &&
      stats.length === projected.length &&
      stats.df.every((df, t) => df === projected.df[t]);
    if (!same) this.broken = true;
  }

  /** A session read: its candidates, scored against `shared`. */
  add(session: SessionInfo, candidates: Candidates): void {
    this.ranking.add(session, candidates);
  }

  /** Whether no session from position `from` of the order on can enter the answer. */
  excludes(from: number): boolean {
    return !this.broken && this.ranking.excludes(from);
  }
}

/** history_search's ranking: the best `limit` messages, sessions read by decreasing bound. */
export class MessageCutRanking implements CutRanking {
  /** The best `limit` final scores (the boosts' included) of the messages read, best first. */
  private readonly best: number[] = [];
  private ordered: readonly BoundedSession[] = [];

  constructor(private readonly limit: number) {}

  order(bounded: BoundedSession[]): BoundedSession[] {
    // Stable: on a tie, in the order given.
    this.ordered = bounded.sort((a, b) => b.bound - a.bound);
    return this.ordered as BoundedSession[];
  }

  /** Its first `limit` are boosted here. */
  add(_session: SessionInfo, candidates: Candidates): void {
    for (const group of candidates.top(this.limit)) insertBest(this.best, group.score, this.limit, (a, b) => b - a);
  }

  /** The next session's bound is the highest left: beaten by the k-th score held, none left can enter. */
  excludes(from: number): boolean {
    const next = this.ordered[from];
    return next === undefined || (this.best.length >= this.limit && beatenBy(next.bound, this.best[this.limit - 1]!));
  }
}
