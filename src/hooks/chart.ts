// The compaction chart: what the model reads in place of a prose summary. It names the session,
// shows the latest turns and messages exactly as the history tools show them (so every id it
// cites works as a tool argument), and says how to reach the rest. Pure: view in, text out.

import { browseMessages, type MessageEntry } from "../history/browse-messages.ts";
import { browseTurns, type TurnEntry } from "../history/browse-turns.ts";
import { toJson } from "../history/compact.ts";
import type { SessionView } from "../history/view.ts";

export interface ChartOptions {
  /** Turns in the overview (the latest ones). */
  recentTurns: number;
  /** Messages in the latest-message window. */
  recentMessages: number;
  /** Character budget of the whole chart. */
  maxChars: number;
  /** Preview length to start from; shortened step by step while the chart is over budget. */
  previewChars: number;
  /** Project root, for relative paths in previews. */
  directory: string;
}

/** Preview lengths tried in order after the configured one, before entries are dropped. */
const SHORTER_PREVIEWS = [100, 60, 30];

/** Page size suggested in the "retrieving more" calls. */
const PAGE = 10;

interface ChartContent {
  turns: TurnEntry[];
  /** Highest visible turn number. */
  lastTurn: number;
  messages: MessageEntry[];
  /** The visible message just before the window, for paging back. */
  beforeMessageId?: string;
}

function collect(view: SessionView, options: ChartOptions, previewChars: number): ChartContent {
  const browse = { previewChars, directory: options.directory };
  const turns =
    options.recentTurns > 0 ? browseTurns(view, { numBefore: options.recentTurns - 1, numAfter: 0 }, { ...browse, cap: options.recentTurns }).turns : [];
  const window =
    options.recentMessages > 0
      ? browseMessages(view, { numBefore: options.recentMessages - 1, numAfter: 0 }, { ...browse, cap: options.recentMessages })
      : undefined;
  const lastTurn = view.visibleEnd > 0 ? view.turnNumbers[view.visibleEnd - 1]! : 0;
  return { turns, lastTurn, messages: window?.messages ?? [], beforeMessageId: window?.before_message_id };
}

function header(sessionId: string): string[] {
  return [
    `# History chart (session ${sessionId})`,
    "The conversation so far is stored verbatim in this session's history. Instead of a lossy summary, this chart shows where it stands and how to read it. Previews are cut short: pull a message before relying on its details.",
  ];
}

function footer(sessionId: string): string[] {
  return [
    '- Full text of any message above: history_pull_message(message_id="<message_id>")',
    '- Anything by topic, however old: history_search(query="<words>")',
    `The stored history of session ${sessionId} is the record of truth: search or pull it before guessing what was said, decided or done, and before redoing work.`,
  ];
}

function render(sessionId: string, content: ChartContent, visibleMessages: number): string {
  const lines = header(sessionId);
  if (visibleMessages === 0) {
    lines.push("", "No earlier messages of this session are stored yet.");
  }
  if (content.turns.length > 0) {
    const first = content.turns[0]!.turn_number;
    lines.push("", "## Latest turns", `Turns ${first} to ${content.lastTurn}, as history_browse_turns shows them:`);
    for (const turn of content.turns) lines.push(toJson(turn));
  }
  if (content.messages.length > 0) {
    lines.push("", "## Latest messages", "As history_browse_messages shows them:");
    for (const message of content.messages) lines.push(toJson(message));
  }
  lines.push("", "## Retrieving more");
  if (visibleMessages > 0) {
    const firstTurn = content.turns[0]?.turn_number;
    if (firstTurn !== undefined && firstTurn > 1) {
      lines.push(`- Older turns: history_browse_turns(turn_number=${firstTurn}, num_before=${PAGE})`);
    } else if (firstTurn === undefined) {
      lines.push(`- Turn overview: history_browse_turns(num_before=${PAGE})`);
    }
    if (content.beforeMessageId !== undefined) {
      lines.push(`- Older messages: history_browse_messages(message_id="${content.beforeMessageId}", num_before=${PAGE})`);
    } else if (content.messages.length === 0) {
      lines.push(`- Latest messages: history_browse_messages(num_before=${PAGE})`);
    }
  }
  lines.push(...footer(sessionId));
  return lines.join("\n");
}

/**
 * The chart of a session's own view, within options.maxChars: previews shrink first, then the
 * oldest turn and message entries go. The session id and the guidance always stay.
 */
export function buildChart(view: SessionView, options: ChartOptions): string {
  const sessionId = view.sessionId;
  const lengths = [options.previewChars, ...SHORTER_PREVIEWS.filter((length) => length < options.previewChars)];
  let content: ChartContent | undefined;
  for (const length of lengths) {
    content = collect(view, options, length);
    const text = render(sessionId, content, view.visibleEnd);
    if (text.length <= options.maxChars) return text;
  }
  // Shortest previews and still over budget: drop the oldest entries, turns and messages in turn.
  const shrinking = content!;
  let dropTurn = true;
  while (shrinking.turns.length > 0 || shrinking.messages.length > 0) {
    if ((dropTurn && shrinking.turns.length > 0) || shrinking.messages.length === 0) {
      shrinking.turns.shift();
    } else {
      // The dropped message becomes the paging point, so "older messages" still starts right before the window.
      shrinking.beforeMessageId = shrinking.messages.shift()!.message_id;
    }
    dropTurn = !dropTurn;
    const text = render(sessionId, shrinking, view.visibleEnd);
    if (text.length <= options.maxChars) return text;
  }
  return render(sessionId, shrinking, view.visibleEnd);
}

/**
 * What the stored summary says when the chart could not be built: short, never empty, never the
 * summarizer's text, and still pointing at the tools.
 */
export function fallbackChart(sessionId: string): string {
  return [
    ...header(sessionId),
    "",
    "## Retrieving the history",
    `- Latest turns: history_browse_turns(num_before=${PAGE}); older ones: history_browse_turns(turn_number=<K>, num_before=${PAGE})`,
    `- Latest messages: history_browse_messages(num_before=${PAGE}); older ones: history_browse_messages(message_id="<before_message_id>", num_before=${PAGE})`,
    ...footer(sessionId),
  ].join("\n");
}
