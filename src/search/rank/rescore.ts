// Project scope: documents found in several sessions, each scored against its own session's
// statistics, are scored again with the document frequencies of every session searched, so a
// message holding the whole query in a session where its words are common is not beaten by a
// partial match where they are rare. Length stays judged against the document's own session, and
// a session's documents are weighed by the share of the query's words the session holds.

import { isCompactionSummary } from "../../history/summaries.ts";
import { fieldNorms, queryWeights, scoreCounts, type CollectionStats, type QueryWeights } from "./bm25.ts";
import type { ScoredDoc } from "../types.ts";
import { bodyField } from "../text/documents.ts";
import { fold } from "../text/normalize.ts";
import { countTerm, type ParsedQuery } from "../text/query.ts";
import { TUNING } from "../tuning.ts";

/** Occurrences of each query term in `text` (the index's own counts: same tokenizer rules). */
function termCounts(text: string, parsed: ParsedQuery): number[] {
  const folded = fold(text);
  return parsed.terms.map((term) => (folded.includes(term.token) ? countTerm(text, folded, term) : 0));
}

/**
 * Share of the query's words found in the sessions searched (`all`) that one session (`own`)
 * holds somewhere: an answer seldom repeats the whole question, but the session it belongs to
 * names what the question is about (`OTEL` in a session about tracing, `stylesheet` where one was
 * added), and a session that never mentions a word the asker used is less likely the one asked
 * about. 1 when no word is found anywhere.
 */
function sessionShare(all: QueryWeights, own: QueryWeights): number {
  return all.words > 0 && TUNING.project.sessionShare ? Math.min(1, own.words / all.words) : 1;
}

/**
 * Scores each of one session's documents again with the idf of `shared` (every session searched)
 * and the average field lengths of `own` (the session's): a word's rarity is a fact of the whole
 * collection, a document's length is long or short for the session it belongs to (a chat's
 * messages run shorter than an agent run's tool outputs), so a session's messages keep the order
 * of lengths its own search gives them. Every score is then weighed by the session's share of
 * the query's words (sessionShare): the order within the session stays, sessions lacking words
 * of the question drop. Counts missing on a document are read from its text.
 */
export function rescore(
  docs: readonly ScoredDoc[],
  parsed: ParsedQuery,
  shared: CollectionStats,
  own: CollectionStats,
  textOf: (doc: ScoredDoc) => string,
): void {
  if (shared.docs === 0) return;
  const weights = queryWeights(shared, parsed.terms);
  const norms = fieldNorms(own.docs > 0 ? own : shared);
  const share = sessionShare(weights, queryWeights(own, parsed.terms));
  for (const doc of docs) {
    const input = doc.input ?? 0;
    if (!doc.tfs) {
      // A tool call's input, the chunk's first code units, is its own field.
      const text = textOf(doc);
      doc.tfs = termCounts(input > 0 ? text.slice(input) : text, parsed);
      if (input > 0) doc.inputTfs = termCounts(text.slice(0, input), parsed);
    }
    const fields = { field: bodyField(doc.type, isCompactionSummary(doc.message)), body: doc.end - doc.start - input, input };
    doc.score = scoreCounts(doc.tfs, doc.inputTfs, fields, weights, norms) * share;
  }
}
