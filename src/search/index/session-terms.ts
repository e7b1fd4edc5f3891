// What a store-wide projection keeps of one session: its documents as every search of it counts
// them (the same chunks of the same visible messages, the same tokenizer): their number, their
// total length, per term how many of them hold it and, per chunk holding it, the term's weighted
// frequency there; and the chunk table (per chunk its message, part, range and a call's input),
// from which a many-session search scores every chunk as reading the session would
// (projected-ranking.ts), reading only the messages that can place.

import { isCompactionSummary } from "../../history/summaries.ts";
import type { ToolVisibility } from "../../history/tool-visibility.ts";
import { firstUserText } from "../../history/preview.ts";
import type { HistoryMessage } from "../../history/types.ts";
import { CHUNK_CONTINUE, CHUNK_HOST_WRITTEN, CHUNK_SUMMARY, type ChunkMessage } from "../types.ts";
import { buildView } from "../../history/view.ts";
import { maybeYield } from "../../util/scheduler.ts";
import { docText, messageDocPieces } from "../text/documents.ts";
import { fold } from "../text/normalize.ts";
import { TokenSpans, tokenSpans } from "../text/tokenize.ts";
import type { SearchTuning } from "../tuning.ts";
import { ChunkList, chunkPart, TermChunks, TermCounts, type TermChunkLists } from "./term-counts.ts";

/**
 * The tuning the projection's counts were made with (chunks and the weighted frequencies) and its
 * term ceilings (projected-ranking.ts's termCeiling: BM25's constants and the chunks' spread): a
 * projection built with other values is rebuilt.
 */
export function countTuning(tuning: SearchTuning): string {
  const { inputWeight, chunkChars, bm25, spread } = tuning;
  return `input=${inputWeight},chunk=${chunkChars},k1=${bm25.k1},b=${bm25.b},spread=${spread.otherShare}/${spread.othersCounted}`;
}

export interface SessionTerms {
  /** Documents (chunks) of the session's searchable text. */
  docs: number;
  /** Their total length in code units (BM25's lengths). */
  length: number;
  /** Each term → its chunks, flat [chunk, tf, length, message, …] (TERM_CHUNK_STRIDE), chunks ascending, tf as rescore.ts counts it (a call's input weighted); a term's document count is its list's chunks. */
  postings: TermChunkLists;
  /** The session's chunks (documents) in order, and the messages and parts they belong to. */
  chunks: ChunkList;
  /** Its turns (history_sessions), and the start of the first text its user wrote (its preview, before clipping). */
  turns: number;
  preview: string;
}

/** The longest preview kept (history_sessions clips it to browse.preview_chars, at most 2,000: history/text.ts's clip reads 4 × that + 64). */
const PREVIEW_KEPT = 8_064;

/**
 * The session as another session's search sees it (not the caller's own view, which hides its
 * live context), reduced to SessionTerms. Background work: yields as a build does, so it never
 * runs while a search does; or at `pause`, when its caller paces it (a promise when it is due).
 */
export async function sessionTerms(
  sessionId: string,
  messages: readonly HistoryMessage[],
  visibility: ToolVisibility,
  tuning: SearchTuning,
  pause: () => Promise<void> | undefined = () => maybeYield("build"),
): Promise<SessionTerms> {
  const view = buildView(sessionId, messages, false);
  const spans = new TokenSpans();
  const counts = new TermCounts();
  const chunks = new ChunkList();
  let docs = 0;
  let length = 0;
  for (let m = 0; m < view.visibleEnd; m++) {
    const message = view.messages[m]!;
    const messageAt = chunks.messages.length;
    let partId: string | undefined;
    for (const doc of messageDocPieces(message, visibility, tuning.chunkChars)) {
      if (chunks.messages.length === messageAt) chunks.messages.push(chunkMessage(message, view.turnNumbers[m] ?? 0));
      if (doc.partId !== partId) chunks.parts.push(chunkPart((partId = doc.partId), doc.type, doc.tool));
      length += doc.end - doc.start;
      chunks.chunks.push(messageAt, chunks.parts.length - 1, doc.start, doc.end, doc.input);
      // Term counts as rescore.ts's termCounts makes them: a tool call's input weighted. The
      // input ends where its piece does, before a separator (documents.ts), so no term spans the
      // cut and the text is tokenized whole.
      const text = docText(doc);
      tokenSpans(text, spans);
      counts.add(docs++, fold(text), spans, doc.input, tuning.inputWeight);
      // Per document, not per message: one message may hold megabytes of tool output.
      const due = pause();
      if (due) await due;
    }
  }
  const turns = view.turnNumbers[view.turnNumbers.length - 1] ?? 0;
  return { docs, length, postings: new TermChunks(counts.group(), chunks), chunks, turns, preview: firstUserText(view).slice(0, PREVIEW_KEPT) };
}

function chunkMessage(message: HistoryMessage, turn: number): ChunkMessage {
  const flags =
    (isCompactionSummary(message) ? CHUNK_SUMMARY : 0) | (message.hostWritten ? CHUNK_HOST_WRITTEN : 0) | (message.compactionContinue ? CHUNK_CONTINUE : 0);
  return { id: message.id, role: message.role, created: message.created ?? 0, flags, turn };
}
