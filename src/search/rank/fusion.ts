// Several phrasings of one need (a query and its alternatives), each ranked on its own over the
// same messages or sessions, fused into one ranking: reciprocal rank fusion, or a sum of each
// phrasing's scores over its own top score (the tuning's fusion, tuning.ts). An item keeps which phrasings
// ranked it and where it ranked best, whose hits and snippets it is shown with.

import type { SearchTuning } from "../tuning.ts";

/** One phrasing's ranking, best first: each item's key and score. */
export type PhrasingRanking<T> = ReadonlyArray<{ key: string; score: number; item: T }>;

export interface FusedItem<T> {
  key: string;
  score: number;
  /** The phrasings that ranked it, ascending (0: the query, 1…: the alternatives in order). */
  by: number[];
  /** The phrasing that ranked it highest (on a tie, the first), and its item there. */
  best: { phrasing: number; place: number; item: T };
}

/**
 * The rankings fused, best first. Equal fused scores keep the order of the best place, then of
 * the phrasing: the query's order wins a tie.
 */
export function fuseRankings<T>(rankings: ReadonlyArray<PhrasingRanking<T>>, tuning: SearchTuning): FusedItem<T>[] {
  const { method, k, queryWeight } = tuning.fusion;
  const fused = new Map<string, FusedItem<T>>();
  rankings.forEach((ranking, phrasing) => {
    const weight = phrasing === 0 ? queryWeight : 1;
    const top = ranking[0]?.score ?? 0;
    ranking.forEach(({ key, score, item }, place) => {
      const share = method === "rank" ? weight / (k + place + 1) : top > 0 ? (weight * score) / top : 0;
      const held = fused.get(key);
      if (!held) {
        fused.set(key, { key, score: share, by: [phrasing], best: { phrasing, place, item } });
        return;
      }
      held.score += share;
      if (!held.by.includes(phrasing)) held.by.push(phrasing);
      if (place < held.best.place) held.best = { phrasing, place, item };
    });
  });
  return [...fused.values()].sort(
    (a, b) =>
      (Math.abs(a.score - b.score) > 1e-12 ? b.score - a.score : 0) ||
      a.best.place - b.best.place ||
      a.best.phrasing - b.best.phrasing ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
}

/** How deep each phrasing is ranked for a fused page ending at `end` (exclusive). */
export function fusedDepth(end: number, tuning: SearchTuning): number {
  return Math.max(end, tuning.fusion.depth);
}
