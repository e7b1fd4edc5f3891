// history_browse_messages: a chronological window of message previews around an anchor.

import { visibleIndex, type SessionView } from "./view.ts";
import { attachments } from "./attachments.ts";
import { fitAnswer, joinNotes, LIST_LEVELS, shortList, type BrowseOptions, type ListLimits, windowAround } from "./fit.ts";
import { messagePreview } from "./preview.ts";
import { summarizeTools, type ToolSummary } from "./tool-summary.ts";
import type { ToolPart } from "./types.ts";

export interface MessageEntry {
  message_id: string;
  role: "user" | "assistant";
  turn_number: number;
  preview: string;
  attachment?: string[];
  tool?: ToolSummary;
}

export interface BrowseMessagesRequest {
  messageId?: string;
  numBefore: number;
  numAfter: number;
}

export interface BrowseMessagesResult {
  before_message_id?: string;
  messages: MessageEntry[];
  after_message_id?: string;
  note?: string;
}

function messageEntry(
  view: SessionView,
  index: number,
  options: Pick<BrowseOptions, "previewChars" | "directory">,
  lists: ListLimits = LIST_LEVELS[0]!,
): MessageEntry {
  const message = view.messages[index]!;
  const calls = message.parts.filter((part): part is ToolPart => part.kind === "tool");
  const tool = summarizeTools(calls);
  return {
    message_id: message.id,
    role: message.role,
    turn_number: view.turnNumbers[index]!,
    preview: messagePreview(message, options.previewChars),
    attachment: message.role === "user" ? shortList(attachments(message, options.directory), lists) : undefined,
    tool: tool ? { ...tool, calls: shortList(tool.calls, lists)! } : undefined,
  };
}

export function browseMessages(view: SessionView, request: BrowseMessagesRequest, options: BrowseOptions): BrowseMessagesResult {
  if (view.visibleEnd === 0) {
    return { messages: [], note: `session ${view.sessionId} has no messages to browse yet` };
  }
  const anchor = request.messageId === undefined ? view.visibleEnd - 1 : visibleIndex(view, request.messageId);
  const window = windowAround({
    anchor,
    numBefore: request.numBefore,
    numAfter: request.numAfter,
    length: view.visibleEnd,
    cap: options.cap,
    noun: "messages",
  });
  return fitAnswer(
    options,
    window,
    anchor,
    (index, entryOptions, lists) => messageEntry(view, index, entryOptions, lists),
    (messages, from, to, cut): BrowseMessagesResult => ({
      before_message_id: from > 0 ? view.messages[from - 1]!.id : undefined,
      messages,
      after_message_id: to < view.visibleEnd ? view.messages[to]!.id : undefined,
      note: joinNotes(window.note, cut ? `cut to ${to - from} messages to stay under the output size limit; page with the ids at the edges` : undefined),
    }),
  );
}
