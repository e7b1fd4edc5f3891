// Best-first lists of at most k items, kept by bounded insertion instead of a full sort: of
// objects under a comparator (insertBest), and of scores in a typed array's run (insertBestScore).

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

/**
 * insertBest for scores, highest first, in the run list[base, base + held) of a typed array with
 * room for `k` (an index search keeps one run per part and per message in one array, reused
 * across searches, so no list is allocated per search); returns the run's new length. `value`
 * goes after its equals. The run is searched from its end: it holds a few scores (ranking's
 * counted parts), where a binary search costs more than it saves.
 */
export function insertBestScore(list: Float64Array, base: number, held: number, k: number, value: number): number {
  if (held === k && !(value > list[base + k - 1]!)) return held;
  let j = held === k ? k - 1 : held;
  while (j > 0 && list[base + j - 1]! < value) {
    list[base + j] = list[base + j - 1]!;
    j--;
  }
  list[base + j] = value;
  return held === k ? held : held + 1;
}
