// A session's messages in their order: the host's own position for each message when it records
// one (`HistoryMessage.position`), else the id, which then sorts in creation order. A message is
// found in such a list by binary search when the ids give the order, else by a scan.

import { lowerBound } from "../util/lower-bound.ts";
import type { HistoryMessage } from "./types.ts";

/** Orders two messages of one session: by position when both have one, else by id. */
export function inSessionOrder(a: HistoryMessage, b: HistoryMessage): number {
  if (a.position !== undefined && b.position !== undefined) return a.position - b.position;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** True when the list's order is its id order, so an id is found by binary search. */
function idsGiveOrder(list: readonly HistoryMessage[]): boolean {
  return list.length === 0 || list[0]!.position === undefined;
}

/**
 * Where the message with this id is in `list` (session order), or undefined. A view keeps no map
 * from ids to positions: project scope keeps a view per session it searched, and in the host's Bun
 * such a map of a 329-message session held 46 KB (13 MB for the bench's 200 sessions).
 */
export function messageIndex(list: readonly HistoryMessage[], id: string): number | undefined {
  if (idsGiveOrder(list)) {
    const at = lowerBound(list.length, (i) => list[i]!.id < id);
    return list[at]?.id === id ? at : undefined;
  }
  // Positioned lists may not be in id order; lookups are a few per tool call, and recent messages are asked for most.
  for (let i = list.length - 1; i >= 0; i--) if (list[i]!.id === id) return i;
  return undefined;
}

/** First index in `list` (session order) whose message does not come before `message`. */
export function insertionIndex(list: readonly HistoryMessage[], message: HistoryMessage): number {
  return lowerBound(list.length, (i) => inSessionOrder(list[i]!, message) < 0);
}
