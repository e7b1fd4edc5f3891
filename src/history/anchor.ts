// Resolving a message id in a view, with errors that say what to do instead.

import { HistoryError } from "./errors.ts";
import { messageIndex, type SessionView } from "./view.ts";

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
