// What a store-wide projection keeps of one session: its documents as every search of it counts
// them (the same chunks of the same visible messages, the same tokenizer), reduced to their
// number, their total length and, per term, how many of them hold it and the most the term alone
// can add to any of the session's messages (its reach). A session whose documents hold no term of
// a query adds only its number and length to that query's statistics; a term's per-session count
// is what that session offers a typo correction; its reach is what lets a many-session search skip
// a session whose best message cannot reach the results (rank/score-bound.ts derives the bound).

import { isCompactionSummary } from "../../history/summaries.ts";
import type { ToolVisibility } from "../../history/tool-visibility.ts";
import { firstUserText } from "../../history/preview.ts";
import type { HistoryMessage, Role } from "../../history/types.ts";
import { buildView } from "../../history/view.ts";
import { maybeYield } from "../../util/scheduler.ts";
import { messageScore, partScore } from "../rank/rank.ts";
import { docText, type HitType, messageDocPieces } from "../text/documents.ts";
import { fold } from "../text/normalize.ts";
import { TokenSpans, tokenSpans } from "../text/tokenize.ts";
import { TUNING } from "../tuning.ts";

/** A reach is stored as a whole number of 1/REACH_SCALE, rounded up. */
export const REACH_SCALE = 4096;

/** The tuning a reach was computed with: a projection built with other values is rebuilt. */
export function reachTuning(): string {
  const { bm25, inputWeight, spread, summaryWeight, chunkChars } = TUNING;
  return `k1=${bm25.k1},b=${bm25.b},input=${inputWeight},spread=${spread.otherShare}x${spread.othersCounted},summary=${summaryWeight},chunk=${chunkChars}`;
}

/** At least any reach (stored): what a term may be given when its reach is unknown. */
export function reachCeiling(): number {
  const { otherShare, othersCounted } = TUNING.spread;
  const spread = 1 + otherShare * othersCounted;
  return Math.ceil(REACH_SCALE * spread * spread * Math.max(1, TUNING.summaryWeight));
}

export interface SessionTerms {
  /** Documents (chunks) of the session's searchable text. */
  docs: number;
  /** Their total length in code units (BM25's lengths). */
  length: number;
  /** Each term of the documents → how many documents hold it. */
  terms: Map<string, number>;
  /**
   * Each term → its reach, ceil(REACH_SCALE × the most, over the session's messages, of the
   * message's score (rank.ts: partScore over each part's chunks, messageScore over the parts,
   * the summary weight) with each chunk scored by the term's saturation alone, tf / (tf +
   * k1·(1 − b + b·length/average)): tf as rescore.ts counts it (a call's input weighted, capped
   * as bm25.ts caps it), the average the session's own, as rescore.ts judges length, and each
   * part's matched chunks those holding the term). rank/score-bound.ts: why Σ idf·w·(k1+1)·reach
   * bounds a message's score.
   */
  reach: Map<string, number>;
  /** Each term → its chunks, flat [chunk, tf, chunk, tf, …], chunks ascending, tf as rescore.ts counts it (a call's input weighted). */
  postings: Map<string, number[]>;
  /** The session's chunks (documents) in order, and the messages and parts they belong to. */
  chunks: SessionChunks;
  /** Its turns (history_sessions), and the start of the first text its user wrote (its preview, before clipping). */
  turns: number;
  preview: string;
}

/** What ranking a session's chunks needs of them without reading the session (a chunk is its place in these lists). */
export interface SessionChunks {
  /** Per message holding a chunk: id, role, creation time (0: none), flags (CHUNK_SUMMARY | CHUNK_HOST_WRITTEN | CHUNK_CONTINUE). */
  messages: Array<[id: string, role: Role, created: number, flags: number]>;
  /** Per part holding a chunk: id, type, tool ("" for none). */
  parts: Array<[id: string, type: HitType, tool: string]>;
  /** Per chunk, flat: message, part, start, end, input (code units of a call's input at its start). */
  chunks: number[];
}

/** SessionChunks' message flags. */
export const CHUNK_SUMMARY = 1;
export const CHUNK_HOST_WRITTEN = 2;
export const CHUNK_CONTINUE = 4;
/** Values per chunk in SessionChunks.chunks. */
export const CHUNK_STRIDE = 5;
/** The longest preview kept (history_sessions clips it to browse.preview_chars, at most 2,000: history/text.ts's clip reads 4 × that + 64). */
const PREVIEW_KEPT = 8_064;

/** Per term, per part of one message (by part id), the saturations of the part's chunks holding it. */
type MessageSaturations = Map<string, Map<string, number[]>>;

const descending = (a: number, b: number) => b - a;

/** The term's reach in one message from its parts' chunk saturations (unscaled). */
function messageReach(parts: ReadonlyMap<string, number[]>, summary: boolean): number {
  const partScores: number[] = [];
  for (const saturations of parts.values()) {
    saturations.sort(descending);
    partScores.push(partScore(saturations, 0, saturations.length, saturations.length));
  }
  partScores.sort(descending);
  const score = messageScore(partScores, 0, partScores.length);
  return summary ? score * TUNING.summaryWeight : score;
}

/**
 * The session as another session's search sees it (not the caller's own view, which hides its
 * live context), reduced to SessionTerms. Background work: yields as a build does, so it never
 * runs while a search does; or at `pause`, when its caller paces it (a promise when it is due).
 */
export async function sessionTerms(
  sessionId: string,
  messages: readonly HistoryMessage[],
  visibility: ToolVisibility,
  pause: () => Promise<void> | undefined = () => maybeYield("build"),
): Promise<SessionTerms> {
  const view = buildView(sessionId, messages, false);
  const terms = new Map<string, number>();
  const reach = new Map<string, number>();
  const spans = new TokenSpans();
  const tfs = new Map<string, number>();
  const postings = new Map<string, number[]>();
  const chunks: SessionChunks = { messages: [], parts: [], chunks: [] };
  // Lengths first (no tokenizing): a term's saturation reads the session's average length.
  let docs = 0;
  let length = 0;
  for (let m = 0; m < view.visibleEnd; m++) {
    for (const doc of messageDocPieces(view.messages[m]!, visibility)) {
      docs++;
      length += doc.end - doc.start;
    }
  }
  const average = docs > 0 ? length / docs : 1;
  const { k1, b } = TUNING.bm25;
  const count = (text: string, times: number) => {
    const folded = fold(text);
    tokenSpans(text, spans);
    for (let i = 0; i < spans.size; i += 2) {
      const term = folded.slice(spans.data[i]!, spans.data[i + 1]!);
      tfs.set(term, (tfs.get(term) ?? 0) + times);
    }
  };
  const saturations: MessageSaturations = new Map();
  let seq = 0;
  for (let m = 0; m < view.visibleEnd; m++) {
    const message = view.messages[m]!;
    saturations.clear();
    const messageAt = chunks.messages.length;
    let partId: string | undefined;
    for (const doc of messageDocPieces(message, visibility)) {
      if (chunks.messages.length === messageAt) chunks.messages.push(chunkMessage(message));
      if (doc.partId !== partId) chunks.parts.push([(partId = doc.partId), doc.type, doc.tool ?? ""]);
      chunks.chunks.push(messageAt, chunks.parts.length - 1, doc.start, doc.end, doc.input);
      const text = docText(doc);
      // Term counts as rescore.ts's termCounts makes them: a tool call's input apart, weighted.
      // The input ends where its piece does, before a separator (documents.ts), so no term spans
      // the cut: the terms counted are the whole text's, and each document holding one is counted.
      tfs.clear();
      if (doc.input === 0) count(text, 1);
      else {
        count(text.slice(0, doc.input), TUNING.inputWeight);
        count(text.slice(doc.input), 1);
      }
      const norm = k1 * (1 - b + (b * (doc.end - doc.start)) / (average || 1));
      for (const [term, tf] of tfs) {
        terms.set(term, (terms.get(term) ?? 0) + 1);
        const held = postings.get(term);
        if (held) held.push(seq, tf);
        else postings.set(term, [seq, tf]);
        const capped = Math.min(tf, 255);
        let parts = saturations.get(term);
        if (!parts) saturations.set(term, (parts = new Map()));
        const list = parts.get(doc.partId);
        if (list) list.push(capped / (capped + norm));
        else parts.set(doc.partId, [capped / (capped + norm)]);
      }
      seq++;
      // Per document, not per message: one message may hold megabytes of tool output.
      const due = pause();
      if (due) await due;
    }
    const summary = isCompactionSummary(message);
    for (const [term, parts] of saturations) {
      // Rounded up past what floating point may lose: a reach must not fall below the score it bounds.
      const scaled = Math.ceil(REACH_SCALE * messageReach(parts, summary) * (1 + 1e-9));
      if (scaled > (reach.get(term) ?? 0)) reach.set(term, scaled);
    }
  }
  const turns = view.turnNumbers[view.turnNumbers.length - 1] ?? 0;
  return { docs, length, terms, reach, postings, chunks, turns, preview: firstUserText(view).slice(0, PREVIEW_KEPT) };
}

function chunkMessage(message: HistoryMessage): SessionChunks["messages"][number] {
  const flags =
    (isCompactionSummary(message) ? CHUNK_SUMMARY : 0) | (message.hostWritten ? CHUNK_HOST_WRITTEN : 0) | (message.compactionContinue ? CHUNK_CONTINUE : 0);
  return [message.id, message.role, message.created ?? 0, flags];
}
