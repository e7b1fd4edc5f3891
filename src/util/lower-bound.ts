// The one binary search: over message ids, snippet marks' starts, best-first lists.

/**
 * First index in [0, count) at which `below` is false, for a `below` that holds for a prefix of
 * the indexes and never after it (the first item not below a target in a sorted list).
 */
export function lowerBound(count: number, below: (index: number) => boolean): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (below(mid)) low = mid + 1;
    else high = mid;
  }
  return low;
}
