// The chart a compaction stores: built from the session's stored history, cut where the host's
// compaction cuts, or the fallback when the history cannot be read. Shared by both hosts' hooks.

import type { HistoryMessage } from "../history/types.ts";
import { buildView, messageIndex, type SessionView } from "../history/view.ts";
import { buildChart, fallbackChart } from "./chart.ts";
import type { HookDeps } from "./deps.ts";

/** Where the summarized history ends, as far as the hooks learned it (ids sort in creation order). */
export interface ChartBounds {
  /** Last message of the history the host handed to the summarizer; a verbatim tail may follow it. */
  lastSummarizedId?: string;
  /** The compaction request message (OpenCode 1.x). */
  compactionMessageId?: string;
  /** The summary message (OpenCode 1.x). */
  summaryMessageId?: string;
}

function cutView(view: SessionView, bounds: ChartBounds): SessionView {
  let end = view.visibleEnd;
  const cut = (before: (id: string) => boolean): void => {
    let index = 0;
    while (index < end && before(view.messages[index]!.id)) index++;
    end = index;
  };
  const { lastSummarizedId, compactionMessageId, summaryMessageId } = bounds;
  if (lastSummarizedId !== undefined) cut((id) => id <= lastSummarizedId);
  if (compactionMessageId !== undefined) cut((id) => id < compactionMessageId);
  if (summaryMessageId !== undefined) cut((id) => id < summaryMessageId);
  return end === view.visibleEnd ? view : { ...view, visibleEnd: end };
}

/**
 * OpenCode 1.x: the session's own view as the tools will see it once the compaction is stored.
 * The compaction request is stored before the summary is written, but the store may not show the
 * newest writes yet, and the verbatim tail's start is recorded only after the summary: cut at what
 * the host summarized, the compaction message and the summary, so every id the chart cites stays
 * browsable.
 */
export function chartView(sessionId: string, messages: readonly HistoryMessage[], bounds: ChartBounds): SessionView {
  return cutView(buildView(sessionId, messages, true), bounds);
}

/**
 * OpenCode 2: the compaction hook runs before anything of this compaction is stored, so the own
 * view would still end at the previous checkpoint. Every stored message up to the last one
 * summarized is history once the new checkpoint lands, except the tail the checkpoint keeps (as
 * text) from `keptFromId` on, which the own view will hide.
 */
export function checkpointView(sessionId: string, messages: readonly HistoryMessage[], lastSummarizedId: string | undefined, keptFromId?: string): SessionView {
  const whole = { ...buildView(sessionId, messages, false), self: true };
  const view = cutView(whole, lastSummarizedId === undefined ? {} : { lastSummarizedId });
  const kept = keptFromId === undefined ? undefined : messageIndex(view.messages, keptFromId);
  return kept !== undefined && kept < view.visibleEnd ? { ...view, visibleEnd: kept } : view;
}

/** The chart of the session's stored history in `view`'s cut, or the fallback chart when it cannot be read. */
export async function chartOfSession(deps: HookDeps, sessionId: string, view: (messages: readonly HistoryMessage[]) => SessionView): Promise<string> {
  try {
    const config = deps.config();
    const messages = await deps.source.loadMessages(sessionId);
    return buildChart(view(messages), {
      recentTurns: config.context_charting.recent_turns,
      recentMessages: config.context_charting.recent_messages,
      maxChars: config.context_charting.max_chars,
      previewChars: config.browse.preview_chars,
      directory: deps.directory,
    });
  } catch (error) {
    deps.log("error", `engram: chart of session ${sessionId} failed, storing the fallback: ${String(error)}`);
    return fallbackChart(sessionId);
  }
}
