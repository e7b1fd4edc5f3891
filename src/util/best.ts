// Best-first lists of at most k items, kept by bounded insertion instead of a full sort.

import { lowerBound } from "./lower-bound.ts";

/** The `k` first items under `compare`, in order (a bounded insertion, no full sort). */
export function selectBest<T>(items: readonly T[], k: number, compare: (a: T, b: T) => number): T[] {
  if (items.length <= k) return [...items].sort(compare);
  const best: T[] = [];
  for (const item of items) insertBest(best, item, k, compare);
  return best;
}

/** Inserts `item` into `best` (the first items under `compare`, in order, after its equals), keeping at most `k`. */
export function insertBest<T>(best: T[], item: T, k: number, compare: (a: T, b: T) => number): void {
  if (best.length >= k && compare(item, best[k - 1]!) >= 0) return;
  const at = lowerBound(best.length, (i) => compare(item, best[i]!) >= 0);
  // Shifted by hand: splice returns a new (empty) array on every call.
  best.push(item);
  for (let i = best.length - 1; i > at; i--) best[i] = best[i - 1]!;
  best[at] = item;
  if (best.length > k) best.pop();
}
