// Host message ids sort in creation order: a session's messages are kept in id order, and a
// message is found in such a list by binary search.

import type { HistoryMessage } from "./types.ts";

/** Orders messages by id, which is their creation order. */
export function byId(a: HistoryMessage, b: HistoryMessage): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** First index in `list` (id order) whose id is not below `id`. */
export function lowerBoundById(list: readonly HistoryMessage[], id: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.id < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
