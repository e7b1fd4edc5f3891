// A session's messages as one tool call sees them: deduplicated, chronological, turn-numbered,
// and, for the calling session's own view, cut where the model's live context begins; a message
// is looked up in it by id, with errors that say what to do instead.

import { HistoryError } from "./errors.ts";
import { messageIndex, inSessionOrder } from "./message-order.ts";
import type { HistoryMessage } from "./types.ts";

export { messageIndex };

export interface SessionView {
  sessionId: string;
  /** Every stored message, one per id, in session order (chronological): `messageIndex` finds one. */
  messages: HistoryMessage[];
  /** Turn number of each message (same index); 0 for messages before the first user turn. */
  turnNumbers: number[];
  /** Messages [0, visibleEnd) are visible; the rest the model already has in context. */
  visibleEnd: number;
  /** True when this is the calling session's own view. */
  self: boolean;
}

/** A user message opens a turn unless the host wrote it (the auto-compaction "Continue…", injected context). */
export function startsTurn(message: HistoryMessage): boolean {
  return message.role === "user" && !message.compactionContinue && !message.hostWritten;
}

function chronological(messages: readonly HistoryMessage[]): HistoryMessage[] {
  const latestById = new Map<string, HistoryMessage>();
  for (const message of messages) latestById.set(message.id, message);
  const unique = [...latestById.values()];
  // Pages may arrive in any order.
  for (let i = 1; i < unique.length; i++) {
    if (inSessionOrder(unique[i - 1]!, unique[i]!) > 0) {
      unique.sort(inSessionOrder);
      break;
    }
  }
  return unique;
}

/**
 * Where the model's live context starts after a compaction: the last message holding a compaction
 * part (the request, or the compaction itself where the host stores it as one message), or its
 * tailStartId when the host kept a tail before it (1.x's tail_start_id, 2.1.2's keepID).
 */
export function liveContextStart(messages: readonly HistoryMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    const compaction = message.parts.find((part) => part.kind === "compaction");
    if (!compaction) continue;
    const tail = compaction.tailStartId !== undefined ? messageIndex(messages, compaction.tailStartId) : undefined;
    return tail !== undefined && tail < i ? tail : i;
  }
  return messages.length;
}

export function buildView(sessionId: string, stored: readonly HistoryMessage[], self: boolean): SessionView {
  const messages = chronological(stored);
  const turnNumbers: number[] = new Array(messages.length);
  let turn = 0;
  messages.forEach((message, index) => {
    if (startsTurn(message)) turn++;
    turnNumbers[index] = turn;
  });
  const visibleEnd = self ? liveContextStart(messages) : messages.length;
  return { sessionId, messages, turnNumbers, visibleEnd, self };
}

/** Index of a visible message; throws for unknown or hidden ids. */
export function visibleIndex(view: SessionView, messageId: string): number {
  const index = messageIndex(view.messages, messageId);
  if (index === undefined) {
    throw new HistoryError(
      `Message ${messageId} not found in session ${view.sessionId}. Use history_browse_messages or history_search to find valid message ids.`,
    );
  }
  if (index >= view.visibleEnd) {
    const neighbour = view.visibleEnd > 0 ? view.messages[view.visibleEnd - 1]!.id : undefined;
    throw new HistoryError(
      `Message ${messageId} is hidden in this session's own view: it follows the last compaction, so it is already in your context.` +
        (neighbour ? ` The latest message you can browse is ${neighbour}.` : ""),
    );
  }
  return index;
}
