// A session's messages as one tool call sees them: deduplicated, chronological, turn-numbered,
// and, for the calling session's own view, cut where the model's live context begins.

import type { HistoryMessage } from "./types.ts";

export interface SessionView {
  sessionId: string;
  /** Every stored message, chronological, one per id. */
  messages: HistoryMessage[];
  /** Turn number of each message (same index); 0 for messages before the first user turn. */
  turnNumbers: number[];
  /** Position of each message id in `messages`. */
  indexById: Map<string, number>;
  /** Messages [0, visibleEnd) are visible; the rest the model already has in context. */
  visibleEnd: number;
  /** True when this is the calling session's own view. */
  self: boolean;
}

/** A user message opens a turn unless the host wrote it (the auto-compaction "Continue…"). */
export function startsTurn(message: HistoryMessage): boolean {
  return message.role === "user" && !message.compactionContinue;
}

function chronological(messages: readonly HistoryMessage[]): HistoryMessage[] {
  const byId = new Map<string, HistoryMessage>();
  for (const message of messages) byId.set(message.id, message);
  const unique = [...byId.values()];
  // Host ids sort in creation order; pages may arrive in any order.
  for (let i = 1; i < unique.length; i++) {
    if (unique[i - 1]!.id > unique[i]!.id) {
      unique.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      break;
    }
  }
  return unique;
}

/**
 * Where the model's live context starts after a compaction: the last user message holding a
 * compaction part, or its tail_start_id when the host kept a verbatim tail before it.
 */
export function liveContextStart(messages: readonly HistoryMessage[], indexById: Map<string, number>): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== "user") continue;
    const compaction = message.parts.find((part) => part.kind === "compaction");
    if (!compaction) continue;
    const tail = compaction.tailStartId !== undefined ? indexById.get(compaction.tailStartId) : undefined;
    return tail !== undefined && tail < i ? tail : i;
  }
  return messages.length;
}

export function buildView(sessionId: string, stored: readonly HistoryMessage[], self: boolean): SessionView {
  const messages = chronological(stored);
  const indexById = new Map<string, number>();
  const turnNumbers: number[] = new Array(messages.length);
  let turn = 0;
  messages.forEach((message, index) => {
    indexById.set(message.id, index);
    if (startsTurn(message)) turn++;
    turnNumbers[index] = turn;
  });
  const visibleEnd = self ? liveContextStart(messages, indexById) : messages.length;
  return { sessionId, messages, turnNumbers, indexById, visibleEnd, self };
}
