// The score-bound cut of a many-session keyword search: the sessions the projection describes are
// read in decreasing order of the most any of their messages can score (rank/score-bound.ts), and
// reading stops once `limit` messages are held whose k-th score beats the next session's bound.
// The sessions left then provably cannot enter the answer: they count as searched. Scores held
// are those before the boosts, each at most its message's final score, against the statistics
// the bounds were made with (the scope's, from the projection); project-search.ts checks those
// equal the statistics it ranks with at the end, and reads the skipped sessions if they do not.
// The cut also waits until every query word is found in a session read: a word found nowhere
// sends the search to its typo pass, which must see every session holding the others.

import type { SessionInfo } from "../history/types.ts";
import type { ProjectedTerms } from "./types.ts";
import type { CollectionStats } from "./rank/bm25.ts";
import { beatenBy, type Candidates } from "./rank/candidates.ts";
import { ScoreBound } from "./rank/score-bound.ts";
import type { ParsedQuery } from "./text/query.ts";
import { unmatchedWords } from "./text/typos.ts";
import { insertBest } from "../util/best.ts";

export class ScoreCut {
  /** The best `limit` scores (before the boosts) of the messages read, best first. */
  private readonly best: number[] = [];
  /** Per query term, the documents holding it in the sessions read. */
  private readonly df: number[];
  private allFound = false;

  constructor(
    private readonly parsed: ParsedQuery,
    private readonly limit: number,
    /** The scope's statistics: the bounds' and the scores' (sessions read, projected, left unread). */
    readonly shared: CollectionStats,
  ) {
    this.df = parsed.terms.map(() => 0);
  }

  /** `sessions` (each described by `projected`) by decreasing bound, with their bounds; on a tie in the order given. */
  order(sessions: readonly SessionInfo[], projected: ReadonlyMap<string, ProjectedTerms>): Array<{ session: SessionInfo; bound: number }> {
    const bound = new ScoreBound(this.parsed, this.shared);
    return sessions
      .map((session, i) => ({ session, bound: bound.of(projected.get(session.id)!), i }))
      .sort((a, b) => b.bound - a.bound || a.i - b.i)
      .map(({ session, bound }) => ({ session, bound }));
  }

  /** A session read: its candidates scored against `shared`, its statistics. */
  add(candidates: Candidates, stats: CollectionStats | undefined): void {
    for (const score of candidates.floors(this.limit)) insertBest(this.best, score, this.limit, (a, b) => b - a);
    if (stats && !this.allFound) {
      stats.df.forEach((df, t) => {
        this.df[t]! += df;
      });
      this.allFound = unmatchedWords(this.parsed, this.df).length === 0;
    }
  }

  /** Whether no message of a session bounded by `bound` (nor of any bounded lower) can enter the answer. */
  excludes(bound: number): boolean {
    return this.allFound && this.best.length >= this.limit && beatenBy(bound, this.best[this.limit - 1]!);
  }
}
