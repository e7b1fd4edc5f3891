// The last few session views the search built, reused while the source's message list is
// unchanged and extended in place when messages were only appended: a warm search, or the one
// after a new turn, does not re-sort and re-number every message of a 10,000-message session.
// Lists are compared pointer by pointer, so a list edited in place is noticed.

import type { HistoryMessage } from "./types.ts";
import { inSessionOrder } from "./message-order.ts";
import { buildView, liveContextStart, startsTurn, type SessionView } from "./view.ts";
import { BoundedMap } from "../util/bounded-map.ts";

/** Views kept (each holds a few arrays the size of its session). */
const MAX_VIEWS = 4;

interface Entry {
  /** The list the view was made from (a copy: the source's may be edited in place). */
  input: HistoryMessage[];
  view: SessionView;
}

/** Length of the common prefix of a and b, compared by identity. */
function commonPrefix(a: readonly HistoryMessage[], b: readonly HistoryMessage[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/** The view of `old` + `tail`, when the tail only adds newer messages (else undefined). */
function extendView(view: SessionView, tail: readonly HistoryMessage[]): SessionView | undefined {
  let last = view.messages[view.messages.length - 1];
  if (last === undefined) return undefined;
  for (const message of tail) {
    // Each one after the last keeps the list in session order (a positioned list is checked for a repeated id too).
    if (!(inSessionOrder(message, last) > 0)) return undefined;
    if (message.position !== undefined && view.messages.some((known) => known.id === message.id)) return undefined;
    last = message;
  }
  const messages = view.messages.concat(tail);
  const turnNumbers = view.turnNumbers.slice();
  let turn = turnNumbers[turnNumbers.length - 1] ?? 0;
  for (let i = view.messages.length; i < messages.length; i++) {
    if (startsTurn(messages[i]!)) turn++;
    turnNumbers.push(turn);
  }
  const visibleEnd = view.self ? liveContextStart(messages) : messages.length;
  return { sessionId: view.sessionId, messages, turnNumbers, visibleEnd, self: view.self };
}

export class ViewCache {
  private readonly entries = new BoundedMap<string, Entry>(MAX_VIEWS);

  view(sessionId: string, messages: readonly HistoryMessage[], self: boolean): SessionView {
    const key = `${sessionId}\u0000${self}`;
    const cached = this.entries.peek(key);
    let view: SessionView | undefined;
    if (cached) {
      const prefix = commonPrefix(cached.input, messages);
      if (prefix === cached.input.length) {
        view = prefix === messages.length ? cached.view : extendView(cached.view, messages.slice(prefix));
        // The source's own list was chronological and unique up to here: keep the copy in step.
        if (view && prefix < messages.length && view.messages.length !== messages.length) view = undefined;
      }
    }
    view ??= buildView(sessionId, messages, self);
    this.entries.set(key, { input: view === cached?.view ? cached.input : messages.slice(), view });
    return view;
  }
}
