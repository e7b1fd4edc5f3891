// The search tests' one session builder: a session of texts (and ready messages) added to a
// MemorySource, the texts as user and assistant messages in turn.

import { textMessage } from "../../history/testing/messages.ts";
import type { HistoryMessage } from "../../history/types.ts";
import type { MemorySource } from "../../store/testing/memory-source.ts";

/** The tests' first moment (1 January 2025, UTC). */
export const T0 = Date.UTC(2025, 0, 1);

export interface SessionShape {
  /** The session's creation and its first message's time (T0). */
  start?: number;
  /** Between one text's message and the next (1 s). */
  step?: number;
  /** The session's last update (its start). */
  updated?: number;
  /** `session <id>` unless given. */
  title?: string;
}

/**
 * Adds session `id` to `source`: each string of `items` becomes a text message (user at even
 * places, assistant at odd ones, at start + place × step), each message is kept as it is. Returns
 * the session's messages.
 */
export function addSession(source: MemorySource, id: string, items: ReadonlyArray<string | HistoryMessage>, shape: SessionShape = {}): HistoryMessage[] {
  const start = shape.start ?? T0;
  const step = shape.step ?? 1000;
  const messages = items.map((item, i) => (typeof item === "string" ? textMessage(id, i % 2 === 0 ? "user" : "assistant", item, start + i * step) : item));
  source.add({ id, title: shape.title ?? `session ${id}`, created: start, updated: shape.updated ?? start }, messages);
  return messages;
}
