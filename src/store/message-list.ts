// A cached session's message list brought up to date by a few re-read messages, without
// rebuilding it: a message appended to a 20,000-message session costs a copy of the list, not a
// map of every message and a sort.

import { isDeepStrictEqual } from "node:util";
import { insertionIndex, inSessionOrder, messageIndex } from "../history/message-order.ts";
import type { HistoryMessage } from "../history/types.ts";

/** Lists this module made or checked: in session order, one message per id. */
const inOrder = new WeakSet<readonly HistoryMessage[]>();

function isInOrder(list: readonly HistoryMessage[]): boolean {
  if (inOrder.has(list)) return true;
  const ids = new Set<string>();
  for (let i = 0; i < list.length; i++) {
    if (i > 0 && !(inSessionOrder(list[i - 1]!, list[i]!) < 0)) return false;
    // Strictly ascending ids are distinct; positions are not ids, so a positioned list is checked.
    if (list[i]!.position !== undefined) {
      if (ids.has(list[i]!.id)) return false;
      ids.add(list[i]!.id);
    }
  }
  inOrder.add(list);
  return true;
}

/**
 * `list` with the re-read messages applied, in session order: a message read again replaces the
 * one of its id unless equal (the cached object stays), a new one is inserted, and an id read as
 * undefined (gone from the store) is removed. A list not in session order is rebuilt and sorted.
 */
export function withChanges(list: readonly HistoryMessage[], reread: ReadonlyMap<string, HistoryMessage | undefined>): HistoryMessage[] {
  if (!isInOrder(list)) {
    const current = new Map(list.map((message) => [message.id, message]));
    for (const [id, message] of reread) {
      const cached = current.get(id);
      if (!message) current.delete(id);
      else if (!cached || !isDeepStrictEqual(cached, message)) current.set(id, message);
    }
    const sorted = [...current.values()].sort(inSessionOrder);
    inOrder.add(sorted);
    return sorted;
  }
  const out = list.slice();
  for (const [id, message] of reread) {
    const at = messageIndex(out, id);
    if (!message) {
      if (at !== undefined) out.splice(at, 1);
    } else if (at === undefined) out.splice(insertionIndex(out, message), 0, message);
    else if (inSessionOrder(out[at]!, message) !== 0) {
      // Its position changed: take it out and put it where it now belongs.
      out.splice(at, 1);
      out.splice(insertionIndex(out, message), 0, message);
    } else if (!isDeepStrictEqual(out[at]!, message)) out[at] = message;
  }
  inOrder.add(out);
  return out;
}
