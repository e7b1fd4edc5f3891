// Project scope: documents found in several sessions, each scored against its own session's
// statistics, are scored again against the statistics of every session searched, so a message
// holding the whole query in a session where its words are common is not beaten by a partial
// match where they are rare.

import { scoreCounts, weightedIdfs, type CollectionStats } from "./bm25.ts";
import type { ScoredDoc } from "../scored.ts";
import { fold } from "../text/normalize.ts";
import { countTerm, type ParsedQuery } from "../text/tokenize.ts";

/** Occurrences of each query term in `text` (the index's own counts: same tokenizer rules). */
export function termCounts(text: string, parsed: ParsedQuery): number[] {
  const folded = fold(text);
  return parsed.terms.map((term) => (folded.includes(term.token) ? countTerm(text, folded, term) : 0));
}

/** Scores each document again against `stats`; counts missing on a document are read from its text. */
export function rescore(docs: readonly ScoredDoc[], parsed: ParsedQuery, stats: CollectionStats, textOf: (doc: ScoredDoc) => string): void {
  if (stats.docs === 0) return;
  const idfs = weightedIdfs(stats, parsed.terms.map((term) => term.weight));
  const groupOf = parsed.terms.map((term) => term.group);
  const avg = stats.length / stats.docs;
  for (const doc of docs) {
    doc.tfs ??= termCounts(textOf(doc), parsed);
    doc.score = scoreCounts(doc.tfs, doc.end - doc.start, idfs, groupOf, parsed.groups, avg);
  }
}
