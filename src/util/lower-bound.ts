// Binary search over a list sorted by a key: message ids, snippet marks' starts.

/** First index in `list` (sorted by `key`, ascending) whose key is not below `target`. */
export function lowerBound<T, K extends number | string>(list: readonly T[], key: (item: T) => K, target: K): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (key(list[mid]!) < target) low = mid + 1;
    else high = mid;
  }
  return low;
}
