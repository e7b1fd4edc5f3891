// What a store-wide projection keeps of one session: its documents as every search of it counts
// them (the same chunks of the same visible messages, the same tokenizer), reduced to their
// number, their total length and, per term, how many of them hold it. A session whose documents
// hold no term of a query adds only its number and length to that query's statistics, and a
// term's per-session count is what that session offers a typo correction.

import type { ToolVisibility } from "../../history/tool-visibility.ts";
import type { HistoryMessage } from "../../history/types.ts";
import { buildView } from "../../history/view.ts";
import { maybeYield } from "../../util/scheduler.ts";
import { docText, messageDocPieces } from "../text/documents.ts";
import { fold } from "../text/normalize.ts";
import { TokenSpans, tokenSpans } from "../text/tokenize.ts";

export interface SessionTerms {
  /** Documents (chunks) of the session's searchable text. */
  docs: number;
  /** Their total length in code units (BM25's lengths). */
  length: number;
  /** Each term of the documents → how many documents hold it. */
  terms: Map<string, number>;
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
  const spans = new TokenSpans();
  const inDoc = new Set<string>();
  let docs = 0;
  let length = 0;
  for (let m = 0; m < view.visibleEnd; m++) {
    for (const doc of messageDocPieces(view.messages[m]!, visibility)) {
      docs++;
      length += doc.end - doc.start;
      const text = docText(doc);
      const folded = fold(text);
      tokenSpans(text, spans);
      inDoc.clear();
      for (let i = 0; i < spans.size; i += 2) inDoc.add(folded.slice(spans.data[i]!, spans.data[i + 1]!));
      for (const term of inDoc) terms.set(term, (terms.get(term) ?? 0) + 1);
      // Per document, not per message: one message may hold megabytes of tool output.
      const due = pause();
      if (due) await due;
    }
  }
  return { docs, length, terms };
}
