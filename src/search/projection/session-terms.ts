// What a store-wide projection keeps of one session: its documents as every search of it counts
// them (the same chunks of the same visible messages, the same tokenizer), reduced to their
// number, their total length and, per term, how many of them hold it and the most BM25 can give
// it in any of them. A session whose documents hold no term of a query adds only its number and
// length to that query's statistics; a term's per-session count is what that session offers a
// typo correction; its saturation bound is what lets a many-session search skip a session whose
// best message cannot reach the results (rank/score-bound.ts).

import type { ToolVisibility } from "../../history/tool-visibility.ts";
import type { HistoryMessage } from "../../history/types.ts";
import { buildView } from "../../history/view.ts";
import { maybeYield } from "../../util/scheduler.ts";
import { docText, messageDocPieces } from "../text/documents.ts";
import { fold } from "../text/normalize.ts";
import { TokenSpans, tokenSpans } from "../text/tokenize.ts";
import { TUNING } from "../tuning.ts";

/** A saturation bound is stored as a whole number of 1/SATURATION_SCALE, rounded up. */
export const SATURATION_SCALE = 4096;

/** The tuning a saturation bound was computed with: a projection built with other values is rebuilt. */
export function saturationTuning(): string {
  const { k1, b } = TUNING.bm25;
  return `k1=${k1},b=${b},input=${TUNING.inputWeight}`;
}

export interface SessionTerms {
  /** Documents (chunks) of the session's searchable text. */
  docs: number;
  /** Their total length in code units (BM25's lengths). */
  length: number;
  /** Each term of the documents → how many documents hold it. */
  terms: Map<string, number>;
  /**
   * Each term → ceil(SATURATION_SCALE × the most of tf / (tf + k1·(1 − b + b·length/average))
   * over the documents holding it): tf as rescore.ts counts it (capped as bm25.ts caps it), the
   * average the session's own, as rescore.ts judges length. A term's BM25 score in any document
   * of the session is at most idf × (k1 + 1) × this / SATURATION_SCALE.
   */
  saturation: Map<string, number>;
}

/**
 * The session as another session's search sees it (not the caller's own view, which hides its
 * live context), reduced to SessionTerms. Background work: yields as a build does, so it never
 * runs while a search does.
 */
export async function sessionTerms(sessionId: string, messages: readonly HistoryMessage[], visibility: ToolVisibility): Promise<SessionTerms> {
  const view = buildView(sessionId, messages, false);
  const terms = new Map<string, number>();
  const saturation = new Map<string, number>();
  const spans = new TokenSpans();
  const inDoc = new Set<string>();
  const tfs = new Map<string, number>();
  // Lengths first (no tokenizing): the saturation of a term reads the session's average length.
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
  for (let m = 0; m < view.visibleEnd; m++) {
    for (const doc of messageDocPieces(view.messages[m]!, visibility)) {
      const text = docText(doc);
      const folded = fold(text);
      tokenSpans(text, spans);
      inDoc.clear();
      for (let i = 0; i < spans.size; i += 2) inDoc.add(folded.slice(spans.data[i]!, spans.data[i + 1]!));
      for (const term of inDoc) terms.set(term, (terms.get(term) ?? 0) + 1);
      // Term counts as rescore.ts's termCounts makes them: a tool call's input apart, weighted.
      tfs.clear();
      if (doc.input === 0) count(text, 1);
      else {
        count(text.slice(0, doc.input), TUNING.inputWeight);
        count(text.slice(doc.input), 1);
      }
      const norm = k1 * (1 - b + (b * (doc.end - doc.start)) / (average || 1));
      for (const [term, tf] of tfs) {
        const capped = Math.min(tf, 255);
        const bound = Math.min(SATURATION_SCALE, Math.ceil((SATURATION_SCALE * capped) / (capped + norm)));
        if (bound > (saturation.get(term) ?? 0)) saturation.set(term, bound);
      }
      // Per document, not per message: one message may hold megabytes of tool output.
      await maybeYield("build");
    }
  }
  return { docs, length, terms, saturation };
}
