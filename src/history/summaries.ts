// Compaction summaries: messages that restate earlier conversation rather than state it first.
// The host's summary (or the chart this plugin stores in its place) is an assistant message with
// `summary: true`. A coding agent that continues a conversation which ran out of context may carry
// its summary in as a user message instead (Claude Code's sessions, imported, do): it opens with a
// fixed sentence.

import type { HistoryMessage } from "./types.ts";

/** The sentence a continuation summary carried in as a user message opens with. */
export const CONTINUATION_SENTENCE = "This session is being continued from a previous conversation";
const CONTINUATION_OPENING = new RegExp(`^\\s*${CONTINUATION_SENTENCE}`);

/** True for a compaction summary: the host's, or one carried in as a user message. */
export function isCompactionSummary(message: HistoryMessage): boolean {
  if (message.role === "assistant") return message.summary === true;
  const first = message.parts.find((part) => part.kind === "text" && !part.ignored);
  return first?.kind === "text" && CONTINUATION_OPENING.test(first.text);
}
