// Compaction → chart. The host's compaction runs in one session as:
//   experimental.session.compacting → experimental.chat.messages.transform (the history to
//   summarize) → message.updated (the summary, summary:true) → system.transform → chat.params
//   (agent "compaction") → experimental.text.complete (the summary text) → session.compacted
// We make the summarizer's request nearly free (minimal prompt, no history, capped output) and
// replace its answer with a chart of the stored history. State is per session, one-shot per
// step, cleared by the end of the flow or by error/idle, and expires so nothing lingers.

import type { HookDeps } from "../hooks/deps.ts";
import { BoundedMap } from "../util/bounded-map.ts";
import { chartOfSession, chartView } from "../hooks/session-chart.ts";

/**
 * Replaces the host's summarization prompt. The host appends "The following is the conversation
 * history:" and the (by then empty) history after it.
 */
export const SUMMARIZER_PROMPT = "Reply with the single word OK. Do not summarize: the conversation is stored verbatim and a chart of it replaces your reply.";

/**
 * Output cap of the summarizer request. Not lower: reasoning models spend output tokens on
 * thinking first, and a reply with no text part never reaches experimental.text.complete.
 */
export const SUMMARIZER_MAX_OUTPUT_TOKENS = 256;

/** A compaction that has not finished by then is considered dead. */
const PENDING_TTL_MS = 10 * 60 * 1000;
const MAX_PENDING = 100;

/**
 * compacting: the prompt is replaced, the history not yet trimmed.
 * trimmed: the history to summarize was emptied (or there was none to find).
 * capped: the summarizer request's parameters were capped; its answer is due.
 * charted: the summary text was replaced; later text parts of the same summary are blanked.
 */
export type Phase = "compacting" | "trimmed" | "capped" | "charted";

interface Pending {
  phase: Phase;
  since: number;
  /** The assistant summary message, from message.updated or the first text part charted. */
  summaryMessageId?: string;
  /** The compaction user message, from chat.params. */
  compactionMessageId?: string;
  /** Last message of the history the host handed to the summarizer; a verbatim tail may follow it. */
  lastSummarizedId?: string;
}

/** The part of a transformed message the hooks read. */
export interface TransformMessage {
  info: { id?: string; sessionID?: string; role?: string; summary?: unknown };
  parts: { type?: string; text?: unknown; [key: string]: unknown }[];
}

export class CompactionCharting {
  private readonly pending = new BoundedMap<string, Pending>(MAX_PENDING);
  /** Charts rebuilt for summaries stored without text, by summary message id. */
  private readonly restored = new BoundedMap<string, string>(MAX_PENDING);
  private readonly now: () => number;

  constructor(private readonly deps: HookDeps) {
    this.now = deps.now ?? Date.now;
  }

  private enabled(): boolean {
    return this.deps.config().context_charting.enable;
  }

  private entry(sessionId: string | undefined): Pending | undefined {
    if (sessionId === undefined) return undefined;
    const entry = this.pending.get(sessionId);
    if (entry && this.now() - entry.since > PENDING_TTL_MS) {
      this.pending.delete(sessionId);
      return undefined;
    }
    return entry;
  }

  /** True while the session's summarizer request is being prepared or answered. */
  isSummarizing(sessionId: string | undefined): boolean {
    const entry = this.entry(sessionId);
    return entry !== undefined && entry.phase !== "charted";
  }

  phaseOf(sessionId: string): Phase | undefined {
    return this.entry(sessionId)?.phase;
  }

  onCompacting(input: { sessionID: string }, output: { context: string[]; prompt?: string }): void {
    if (!this.enabled()) return;
    this.pending.set(input.sessionID, { phase: "compacting", since: this.now() });
    output.prompt = SUMMARIZER_PROMPT;
  }

  /**
   * The summarizer's history arrives here with no session id in the input: it is found on the
   * messages. The array is emptied in place because the host keeps its own reference to it.
   */
  async onMessagesTransform(output: { messages: TransformMessage[] }): Promise<void> {
    if (this.trim(output.messages)) return;
    await this.restoreMissingChart(output.messages);
  }

  /** Empties the summarizer's history; true when these messages were the summarizer's. */
  private trim(messages: TransformMessage[]): boolean {
    if (this.pending.size === 0) return false;
    if (messages.length === 0) {
      // Only a compaction sends an empty history; whichever session it was, it has nothing to trim.
      for (const sessionId of this.pending.keys()) {
        const entry = this.entry(sessionId);
        if (entry?.phase === "compacting") entry.phase = "trimmed";
      }
      return true;
    }
    const sessionId = messages.find((message) => typeof message.info?.sessionID === "string")?.info.sessionID;
    const entry = this.entry(sessionId);
    if (entry?.phase !== "compacting") return false;
    // The summarizer's history never holds a compaction pair (the host filters them out); a
    // request that does is a normal one after a compaction, and must be left alone.
    const afterCompaction = messages.some(
      (message) => (message.info.role === "assistant" && message.info.summary === true) || message.parts.some((part) => part.type === "compaction"),
    );
    if (afterCompaction) return false;
    entry.lastSummarizedId = messages[messages.length - 1]!.info.id;
    entry.phase = "trimmed";
    messages.splice(0, messages.length);
    return true;
  }

  /**
   * A summary with no text (a reasoning model spent the capped output on thinking, or the
   * summarizer failed) never reached experimental.text.complete, so the model would see an empty
   * answer to "What did we do so far?". Give it the chart in this request instead; the stored
   * message is left as it is.
   */
  private async restoreMissingChart(messages: TransformMessage[]): Promise<void> {
    if (messages.length === 0 || !this.enabled()) return;
    const summary = messages.findLast((message) => message.info?.role === "assistant" && message.info.summary === true);
    if (!summary) return;
    const { id, sessionID } = summary.info;
    if (typeof id !== "string" || typeof sessionID !== "string") return;
    if (summary.parts.some((part) => part.type === "text" && typeof part.text === "string" && part.text.trim() !== "")) return;
    let chart = this.restored.get(id);
    if (chart === undefined) {
      chart = await this.chartOrFallback(sessionID, { phase: "charted", since: this.now(), summaryMessageId: id });
      this.restored.set(id, chart);
    }
    summary.parts.push({ id: `prt_engram_chart_${id}`, sessionID, messageID: id, type: "text", text: chart, synthetic: true });
  }

  onChatParams(
    input: { sessionID: string; agent: string; message?: { id?: string } },
    output: { maxOutputTokens: number | undefined; options: Record<string, unknown> },
  ): void {
    const entry = this.entry(input.sessionID);
    if (!entry || input.agent !== "compaction") return;
    if (entry.phase !== "compacting" && entry.phase !== "trimmed") return;
    entry.phase = "capped";
    if (typeof input.message?.id === "string") entry.compactionMessageId = input.message.id;
    output.maxOutputTokens = Math.min(output.maxOutputTokens ?? SUMMARIZER_MAX_OUTPUT_TOKENS, SUMMARIZER_MAX_OUTPUT_TOKENS);
    // A thinking budget (Anthropic-style) would be spent on a reply that is thrown away.
    if (output.options && "thinking" in output.options) delete output.options.thinking;
  }

  /** message.updated: the summary message exists (and carries summary:true) before its text completes. */
  onMessageUpdated(info: { id?: unknown; sessionID?: unknown; role?: unknown; summary?: unknown }): void {
    if (info.role !== "assistant" || info.summary !== true) return;
    if (typeof info.sessionID !== "string" || typeof info.id !== "string") return;
    const entry = this.entry(info.sessionID);
    if (entry && entry.phase !== "charted") entry.summaryMessageId = info.id;
  }

  /** session.compacted, session.error, session.idle: the compaction is over, however it ended. */
  onSessionEnded(sessionId: string): void {
    this.pending.delete(sessionId);
  }

  async onTextComplete(input: { sessionID: string; messageID: string }, output: { text: string }): Promise<void> {
    const entry = this.entry(input.sessionID);
    if (!entry) return;
    if (entry.summaryMessageId !== undefined && entry.summaryMessageId !== input.messageID) {
      // Another message of the session: the summary is behind us, whatever became of it.
      this.pending.delete(input.sessionID);
      return;
    }
    if (entry.phase === "charted") {
      // A further text part of the same summary: the chart already stands for all of it.
      output.text = "";
      return;
    }
    entry.summaryMessageId = input.messageID;
    entry.phase = "charted";
    output.text = await this.chartOrFallback(input.sessionID, entry);
  }

  private chartOrFallback(sessionId: string, entry: Pending): Promise<string> {
    return chartOfSession(this.deps, sessionId, (messages) => chartView(sessionId, messages, entry));
  }
}
