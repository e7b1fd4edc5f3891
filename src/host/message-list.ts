// A cached session's message list brought up to date by a few re-read messages, without
// rebuilding it: a message appended to a 20,000-message session costs a copy of the list, not a
// map of every message and a sort.

import { byId, lowerBoundById } from "../history/id-order.ts";
import type { HistoryMessage } from "../history/types.ts";
import { sameMessage } from "./equal.ts";

/** Lists this module made or checked: in id order, one message per id. */
const inIdOrder = new WeakSet<readonly HistoryMessage[]>();

function isInIdOrder(list: readonly HistoryMessage[]): boolean {
  if (inIdOrder.has(list)) return true;
  for (let i = 1; i < list.length; i++) if (!(list[i - 1]!.id < list[i]!.id)) return false;
  inIdOrder.add(list);
  return true;
}

/**
 * `list` with the re-read messages applied, in id order: a message read again replaces the one of
 * its id unless equal (the cached object stays), a new one is inserted, and an id read as
 * undefined (gone from the store) is removed. A list not in id order is rebuilt and sorted.
 */
export function withChanges(list: readonly HistoryMessage[], reread: ReadonlyMap<string, HistoryMessage | undefined>): HistoryMessage[] {
  if (!isInIdOrder(list)) {
    const current = new Map(list.map((message) => [message.id, message]));
    for (const [id, message] of reread) {
      const cached = current.get(id);
      if (!message) current.delete(id);
      else if (!cached || !sameMessage(cached, message)) current.set(id, message);
    }
    const sorted = [...current.values()].sort(byId);
    inIdOrder.add(sorted);
    return sorted;
  }
  const out = list.slice();
  for (const [id, message] of reread) {
    const at = lowerBoundById(out, id);
    const present = at < out.length && out[at]!.id === id;
    if (!message) {
      if (present) out.splice(at, 1);
    } else if (!present) out.splice(at, 0, message);
    else if (!sameMessage(out[at]!, message)) out[at] = message;
  }
  inIdOrder.add(out);
  return out;
}
