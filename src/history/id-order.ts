// Host message ids sort in creation order: a session's messages are kept in id order, and a
// message is found in such a list by binary search.

import { lowerBound } from "../util/lower-bound.ts";
import type { HistoryMessage } from "./types.ts";

/** Orders messages by id, which is their creation order. */
export function byId(a: HistoryMessage, b: HistoryMessage): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

const messageId = (message: HistoryMessage): string => message.id;

/** First index in `list` (id order) whose id is not below `id`. */
export function lowerBoundById(list: readonly HistoryMessage[], id: string): number {
  return lowerBound(list, messageId, id);
}
