// The most any message of a session can score in a many-session search, from what the store's
// projection keeps of it (session-terms.ts), without reading it. A message's final score is built
// from its chunks' scores (rescore.ts, rank.ts):
//   chunk   = Σ_t idf_t·w_t · tf(k1+1)/(tf + k1(1 − b + b·len/avg_own)) × coverage × sessionShare
//   part    = best chunk + otherShare · (≤ othersCounted next chunks) / matched ≤ best · (1 + otherShare)
//   message = best part + otherShare · (≤ othersCounted next parts) ≤ part · (1 + otherShare·othersCounted)
//   × summaryWeight for a compaction summary, × the boosts (at most maxBoost at rank 0).
// idf is the scope's (shared statistics), avg_own the session's own average length, which the
// projection's saturation bound was computed with, so each term's score in any chunk is at most
// idf_t·w_t·(k1+1)·saturation_t; coverage ≤ 1; sessionShare is computed exactly.

import type { ProjectedTerms } from "../types.ts";
import { SATURATION_SCALE } from "../projection/session-terms.ts";
import type { ParsedQuery } from "../text/query.ts";
import { TUNING } from "../tuning.ts";
import { queryWeights, type CollectionStats, type QueryWeights } from "./bm25.ts";
import { maxBoost } from "./rank.ts";
import { sessionShare } from "./rescore.ts";

/** Factor from a chunk's score to the most its message can score (spread, summary weight, boosts). */
function messageFactor(parsed: ParsedQuery): number {
  const { otherShare, othersCounted } = TUNING.spread;
  return (1 + otherShare) * (1 + otherShare * othersCounted) * Math.max(1, TUNING.summaryWeight) * maxBoost(parsed, 0);
}

/** Bounds of sessions' message scores against one scope's statistics. */
export class ScoreBound {
  private readonly factor: number;
  private readonly weights: QueryWeights;

  constructor(
    private readonly parsed: ParsedQuery,
    shared: CollectionStats,
  ) {
    this.factor = messageFactor(parsed);
    this.weights = queryWeights(shared, parsed.terms);
  }

  /** At least the final score (after the boosts) of any message of the session `own` describes. */
  of(own: ProjectedTerms): number {
    const weights = this.weights;
    const share = sessionShare(weights, queryWeights(own, this.parsed.terms));
    const k1 = TUNING.bm25.k1;
    let chunk = 0;
    own.saturation.forEach((saturation, t) => {
      chunk += weights.idfs[t]! * (k1 + 1) * (saturation / SATURATION_SCALE);
    });
    return chunk * share * this.factor;
  }
}
