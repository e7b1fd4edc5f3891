// The most any message of a session can score in a many-session search, from what the store's
// projection keeps of it (projection/session-terms.ts), without reading it. Why it bounds:
//
// A chunk c of the session scores (rescore.ts, bm25.ts), with the scope's shared idf and the
// session's own average length avg:
//   s_c = share · cov_c · Σ_t y_t(c),  y_t(c) = idf_t·w_t·(k1+1) · sat_t(c) ≥ 0,
//   sat_t(c) = tf / (tf + k1(1 − b + b·len_c/avg)), tf as rescore.ts counts it (0: absent);
// w_t is the query's weight of the term (its word's share, a stem's, a function word's), share
// the session's (sessionShare), both the same for every chunk of the session. cov_c =
// coverageFactor(words the chunk holds, W), W the query words the scope holds (queryWeights);
// the words the chunk holds are among those the session holds, H (queryWeights(own).words counts
// them, or counts every word when coverage counts words not found: as many or more), and
// coverageFactor rises with its first argument, so cov_c ≤ coverageFactor(H, W) =: cov.
// A part scores (rank.ts partScore) Σ_i α_i s_(i) over its chunks sorted best first, α_1 = 1,
// α_2..α_(1+othersCounted) = otherShare/m, the rest 0, m its matched chunks; a message scores
// (messageScore) Σ_j β_j P_(j) over its parts sorted best first, β_1 = 1, β_2.. = otherShare up to
// othersCounted, then × summaryWeight for a compaction summary. Both weight lists are
// non-increasing (otherShare/m ≤ 1) and non-negative, so by the rearrangement inequality each
// sum is the largest Σ α_i x_π(i) over orders π of its values: it rises with each value, and the
// sum over terms of each term's own best order is at least the sum's best order. Hence
//   P ≤ share·cov·Σ_t idf_t·w_t·(k1+1) · Σ_i α_i sat_t(c_(i)_t)   (c_(i)_t: sorted by sat_t),
// and with m ≥ m_t (a chunk holding t is matched), α_i ≤ otherShare/m_t: the inner sum is at most
// partScore over the part's sat_t alone with m_t matched. The same step over the parts gives
//   message ≤ share·cov·Σ_t idf_t·w_t·(k1+1) · reach_t(message) ≤ share·cov·Σ_t idf_t·w_t·(k1+1)·reach_t
// with reach_t the term's most over the session's messages (the summary weight in each), stored
// rounded up. The boosts multiply chunk scores by at most maxBoost (rank.ts): a message's score
// rises at most as much. Filters take whole parts or messages: a part's chunks are all scored or
// none. This holds for the session as projected: the cut checks every session it reads against
// its projection (score-cut.ts).

import type { ProjectedTerms } from "../types.ts";
import { REACH_SCALE } from "./session-terms.ts";
import type { ParsedQuery } from "../text/query.ts";
import { TUNING } from "../tuning.ts";
import { coverageFactor, queryWeights, type CollectionStats, type QueryWeights } from "../rank/bm25.ts";
import { maxBoost } from "../rank/rank.ts";
import { sessionShare } from "../rank/rescore.ts";

/** Bounds of sessions' message scores against one scope's statistics. */
export class ScoreBound {
  private readonly boost: number;
  private readonly weights: QueryWeights;

  constructor(
    private readonly parsed: ParsedQuery,
    shared: CollectionStats,
  ) {
    this.boost = maxBoost(parsed, 0);
    this.weights = queryWeights(shared, parsed.terms);
  }

  /** At least the final score (after the boosts) of any message of the session `own` describes. */
  of(own: ProjectedTerms): number {
    const weights = this.weights;
    const ownWeights = queryWeights(own, this.parsed.terms);
    const share = sessionShare(weights, ownWeights);
    const cov = coverageFactor(Math.min(ownWeights.words, weights.words), weights.words);
    const k1 = TUNING.bm25.k1;
    let sum = 0;
    own.reach.forEach((reach, t) => {
      sum += weights.idfs[t]! * (k1 + 1) * (reach / REACH_SCALE);
    });
    return sum * share * cov * this.boost;
  }
}
