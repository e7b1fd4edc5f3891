// history_browse_turns: the cheapest level, one entry per user turn.

import { attachments } from "./attachments.ts";
import { HistoryError } from "./errors.ts";
import { fitAnswer, joinNotes, LIST_LEVELS, shortList, type BrowseOptions, type ListLimits, windowAround } from "./fit.ts";
import { modifiedFiles } from "./modified.ts";
import { hasAuthoredText, messagePreview } from "./preview.ts";
import { summarizeTools, toolParts, type ToolSummary } from "./tool-summary.ts";
import { lastTurnNumber, visibleTurns, type Turn } from "./turns.ts";
import type { SessionView } from "./view.ts";

export interface TurnEntry {
  turn_number: number;
  user?: { message_id: string; preview: string; attachment?: string[] };
  assistant?: {
    preview: string;
    total_messages: number;
    tool?: ToolSummary;
    modified?: string[];
  };
}

export interface BrowseTurnsRequest {
  turnNumber?: number;
  numBefore: number;
  numAfter: number;
  /**
   * Without turnNumber, end the window before the session's last turn when the view is the
   * caller's own and that turn is visible: it is the turn making the call, already in context.
   */
  skipCallingTurn?: boolean;
}

export interface BrowseTurnsResult {
  turns: TurnEntry[];
  note?: string;
}

function turnEntry(turn: Turn, options: Pick<BrowseOptions, "previewChars" | "directory">, lists: ListLimits = LIST_LEVELS[0]!): TurnEntry {
  const assistants = turn.rest.filter((message) => message.role === "assistant");
  const entry: TurnEntry = { turn_number: turn.number };
  if (turn.user) {
    entry.user = {
      message_id: turn.user.id,
      preview: messagePreview(turn.user, options.previewChars),
      attachment: shortList(attachments(turn.user, options.directory), lists),
    };
  }
  if (assistants.length > 0) {
    // The last worded reply usually states what the turn achieved.
    const worded = assistants.findLast(hasAuthoredText) ?? assistants[assistants.length - 1]!;
    const modified = modifiedFiles(assistants, options.directory);
    const tool = summarizeTools(toolParts(assistants));
    entry.assistant = {
      preview: messagePreview(worded, options.previewChars),
      total_messages: assistants.length,
      tool: tool ? { ...tool, calls: shortList(tool.calls, lists)! } : undefined,
      modified: modified.length > 0 ? shortList(modified, lists) : undefined,
    };
  }
  return entry;
}

function hiddenTurnError(number: number, turns: readonly Turn[]): HistoryError {
  const latest = turns[turns.length - 1];
  const hint = latest
    ? `Its content is already in your context. The latest turn you can browse is ${latest.number}.`
    : "Its content is already in your context; nothing earlier is stored.";
  return new HistoryError(`Turn ${number} is hidden in this session's own view (it follows the last compaction). ${hint}`);
}

export function browseTurns(view: SessionView, request: BrowseTurnsRequest, options: BrowseOptions): BrowseTurnsResult {
  const turns = visibleTurns(view);
  const last = lastTurnNumber(view);
  let anchor = turns.length - 1;
  if (request.skipCallingTurn && request.turnNumber === undefined && view.self && anchor > 0 && turns[anchor]!.number === last) anchor--;
  if (request.turnNumber !== undefined) {
    const number = request.turnNumber;
    anchor = turns.findIndex((turn) => turn.number === number);
    if (anchor < 0) {
      if (number >= 1 && number <= last) throw hiddenTurnError(number, turns);
      throw new HistoryError(
        last === 0
          ? `Turn ${number} not found: session ${view.sessionId} has no turns yet.`
          : `Turn ${number} not found: session ${view.sessionId} has turns 1 to ${last}.`,
      );
    }
  }
  if (anchor < 0) return { turns: [], note: `session ${view.sessionId} has no turns to browse yet` };
  const window = windowAround({
    anchor,
    numBefore: request.numBefore,
    numAfter: request.turnNumber === undefined ? 0 : request.numAfter,
    length: turns.length,
    cap: options.cap,
    noun: "turns",
  });
  return fitAnswer(
    options,
    window,
    anchor,
    (index, entryOptions, lists) => turnEntry(turns[index]!, entryOptions, lists),
    (kept, _from, _to, cut): BrowseTurnsResult => ({
      turns: kept,
      note: joinNotes(
        window.note,
        cut
          ? `cut to ${kept.length} turns (${kept[0]!.turn_number} to ${kept[kept.length - 1]!.turn_number}) to stay under the output size limit; ask for the turns beyond with turn_number`
          : undefined,
      ),
    }),
  );
}
