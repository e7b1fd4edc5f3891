// history_pull_part: the whole text of one part, paged so no answer exceeds the host's cut.

import { visibleIndex, type SessionView } from "./view.ts";
import { byteLength } from "./compact.ts";
import { HistoryError } from "./errors.ts";
import { MAX_ANSWER_BYTES } from "./limits.ts";
import { safeCut } from "./text.ts";
import { toolPartText } from "./tool-text.ts";
import type { ToolVisibility } from "./tool-visibility.ts";

export interface PullPartRequest {
  messageId: string;
  partId: string;
  offset: number;
  /** Characters wanted in this page. */
  limit: number;
}

export interface PullPartResult {
  type: string;
  tool?: string;
  content: string;
  /** Set when more content follows: pass it as `offset`. */
  next_offset?: number;
  total_chars?: number;
}

/** Room left for content after the envelope's keys (~200 bytes). */
const CONTENT_BYTES = MAX_ANSWER_BYTES - 400;

function partText(view: SessionView, request: PullPartRequest, visibility: ToolVisibility): { type: string; tool?: string; text: string } {
  const message = view.messages[visibleIndex(view, request.messageId)]!;
  const part = message.parts.find((candidate) => candidate.id === request.partId);
  if (!part) {
    const ids = message.parts.filter((p) => p.kind === "text" || p.kind === "reasoning" || p.kind === "tool" || p.kind === "subtask").map((p) => p.id);
    throw new HistoryError(
      `Part ${request.partId} not found in message ${request.messageId}.` +
        (ids.length > 0 ? ` Its readable parts are: ${ids.slice(0, 20).join(", ")}.` : " That message has no readable parts.") +
        " history_pull_message lists them.",
    );
  }
  switch (part.kind) {
    case "text":
    case "reasoning":
      return { type: part.kind, text: part.text };
    case "subtask":
      return { type: "subtask", text: part.prompt };
    case "tool": {
      if (!visibility.input(part.tool) && !visibility.output(part.tool)) {
        throw new HistoryError(`Part ${part.id} (${part.tool}) is hidden by the show_tool_input / show_tool_output settings.`);
      }
      const text = toolPartText(part, visibility);
      if (text === "") {
        throw new HistoryError(
          part.status === "running" || part.status === "pending"
            ? `Part ${part.id} (${part.tool}) has no content yet (status: ${part.status}).`
            : `Part ${part.id} (${part.tool}) has no visible content.`,
        );
      }
      return { type: "tool", tool: part.tool, text };
    }
    default:
      throw new HistoryError(`Part ${part.id} is a ${part.kind} part with no text to read; history_pull_message shows it.`);
  }
}

/** The longest slice from `offset`, at most `limit` characters, whose JSON fits the byte budget. */
function page(text: string, offset: number, limit: number): string {
  let end = safeCut(text, Math.min(text.length, offset + limit));
  for (;;) {
    const slice = text.slice(offset, end);
    const bytes = byteLength(JSON.stringify(slice));
    if (bytes <= CONTENT_BYTES || end - offset <= 1) return slice;
    // Shrink in proportion to the overshoot; JSON escapes and UTF-8 make bytes > chars.
    const next = offset + Math.floor(((end - offset) * CONTENT_BYTES) / bytes) - 1;
    end = safeCut(text, Math.max(offset + 1, next));
  }
}

export function pullPart(view: SessionView, request: PullPartRequest, visibility: ToolVisibility): PullPartResult {
  const { type, tool, text } = partText(view, request, visibility);
  if (request.offset > text.length || (request.offset > 0 && request.offset === text.length)) {
    throw new HistoryError(`offset ${request.offset} is past the end of part ${request.partId} (${text.length} chars).`);
  }
  const start = safeCut(text, request.offset);
  const content = page(text, start, request.limit);
  const end = start + content.length;
  const paged = start > 0 || end < text.length;
  return {
    type,
    tool,
    content,
    next_offset: end < text.length ? end : undefined,
    total_chars: paged ? text.length : undefined,
  };
}
