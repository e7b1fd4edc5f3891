// Turns of a view: every user turn with the assistant messages that answered it.

import type { SessionView } from "./view.ts";
import type { HistoryMessage } from "./types.ts";

export interface Turn {
  number: number;
  /** Index in view.messages of the turn's first message. */
  start: number;
  /** One past the turn's last visible message. */
  end: number;
  user?: HistoryMessage;
  /** Assistant messages and host-added user messages of the turn, visible ones only. */
  rest: HistoryMessage[];
}

/** Views are never changed once made: their turns are worked out once (a browse reuses the view while the session is unchanged). */
const turnsOfView = new WeakMap<SessionView, readonly Turn[]>();

/** Visible turns in order. Turn 0 holds messages before the first user message, if any. */
export function visibleTurns(view: SessionView): readonly Turn[] {
  let turns = turnsOfView.get(view);
  if (!turns) turnsOfView.set(view, (turns = computeTurns(view)));
  return turns;
}

function computeTurns(view: SessionView): Turn[] {
  const turns: Turn[] = [];
  let current: Turn | undefined;
  for (let index = 0; index < view.visibleEnd; index++) {
    const message = view.messages[index]!;
    const number = view.turnNumbers[index]!;
    if (!current || current.number !== number) {
      current = { number, start: index, end: index, rest: [] };
      if (number > 0) current.user = message;
      else current.rest.push(message);
      turns.push(current);
    } else {
      current.rest.push(message);
    }
    current.end = index + 1;
  }
  return turns;
}

/** Highest turn number in the whole session, hidden turns included. */
export function lastTurnNumber(view: SessionView): number {
  return view.turnNumbers.length > 0 ? view.turnNumbers[view.turnNumbers.length - 1]! : 0;
}
