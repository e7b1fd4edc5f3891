// One-line previews of messages: the first text a person wrote or read, else a bracketed label.

import { clip } from "./text.ts";
import type { HistoryMessage, HistoryPart, TextPart } from "./types.ts";

/** Text the user or the model actually wrote: not host-added, not ignored, not blank. */
function authoredText(part: HistoryPart): part is TextPart {
  return part.kind === "text" && !part.synthetic && !part.ignored && part.text.trim() !== "";
}

/** The first text the user wrote in a session's messages (history_sessions' preview); "" when none. */
export function firstUserText(view: { messages: readonly HistoryMessage[] }): string {
  for (const message of view.messages) {
    if (message.role !== "user") continue;
    const text = message.parts.find(authoredText);
    if (text) return text.text;
  }
  return "";
}

function label(message: HistoryMessage): string {
  const parts = message.parts;
  if (message.role === "user") {
    if (message.compactionContinue) return "[continue after compaction]";
    if (message.hostWritten) return parts.some((part) => part.kind === "tool") ? "[command run by the user]" : "[added by the host]";
    if (parts.some((part) => part.kind === "compaction")) return "[compaction request]";
    const subtask = parts.find((part) => part.kind === "subtask");
    if (subtask) return subtask.description ? `[subtask request] ${subtask.description}` : "[subtask request]";
    if (parts.some((part) => part.kind === "file")) return "[attachments only]";
    return "[no text]";
  }
  if (message.summary) return "[compacted summary]";
  if (message.error) {
    const detail = message.error.message ? `: ${message.error.message}` : "";
    return message.error.name === "MessageAbortedError" ? "[aborted]" : `[error: ${message.error.name}${detail}]`;
  }
  if (parts.some((part) => part.kind === "tool")) return "[tool calls only]";
  if (parts.some((part) => part.kind === "reasoning")) return "[reasoning only]";
  return "[no content]";
}

export function messagePreview(message: HistoryMessage, maxChars: number): string {
  // A summary's text is the chart or the summarizer's prose: label it rather than echo it.
  if (message.role === "assistant" && message.summary) return "[compacted summary]";
  const text = message.parts.find(authoredText);
  return text ? clip(text.text, maxChars) : clip(label(message), maxChars);
}

/** True when the message has authored text (so its preview is words, not a label). */
export function hasAuthoredText(message: HistoryMessage): boolean {
  return message.parts.some(authoredText);
}
