// Project scope: documents found in several sessions, each scored against its own session's
// statistics, are scored again with the document frequencies of every session searched, so a
// message holding the whole query in a session where its words are common is not beaten by a
// partial match where they are rare. Length stays judged against the document's own session.

import { queryWeights, scoreCounts, type CollectionStats } from "./bm25.ts";
import type { ScoredDoc } from "../scored.ts";
import { INPUT_WEIGHT } from "../text/documents.ts";
import { fold } from "../text/normalize.ts";
import { countTerm, type ParsedQuery } from "../text/tokenize.ts";

/**
 * Occurrences of each query term in `text` (the index's own counts: same tokenizer rules), those
 * in its first `input` code units (a tool call's input) counted INPUT_WEIGHT times.
 */
export function termCounts(text: string, parsed: ParsedQuery, input = 0): number[] {
  const counts = (part: string, times: number) => {
    const folded = fold(part);
    return parsed.terms.map((term) => (folded.includes(term.token) ? countTerm(part, folded, term) * times : 0));
  };
  if (input === 0) return counts(text, 1);
  const inInput = counts(text.slice(0, input), INPUT_WEIGHT);
  return counts(text.slice(input), 1).map((tf, t) => tf + inInput[t]!);
}

/**
 * Scores each of one session's documents again with the idf of `stats` (every session searched)
 * and the average length of `own` (the session's): a word's rarity is a fact of the whole
 * collection, a document's length is long or short for the session it belongs to (a chat's
 * messages run shorter than an agent run's tool outputs), so a session's messages keep the order
 * of lengths its own search gives them. Counts missing on a document are read from its text.
 */
export function rescore(docs: readonly ScoredDoc[], parsed: ParsedQuery, stats: CollectionStats, own: CollectionStats, textOf: (doc: ScoredDoc) => string): void {
  if (stats.docs === 0) return;
  const weights = queryWeights(stats, parsed.terms);
  const avg = own.docs > 0 ? own.length / own.docs : stats.length / stats.docs;
  for (const doc of docs) {
    doc.tfs ??= termCounts(textOf(doc), parsed, doc.input);
    doc.score = scoreCounts(doc.tfs, doc.end - doc.start, weights, avg);
  }
}
