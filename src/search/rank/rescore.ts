// Project scope: documents found in several sessions, each scored against its own session's
// statistics, are scored again with the document frequencies of every session searched, so a
// message holding the whole query in a session where its words are common is not beaten by a
// partial match where they are rare. Length stays judged against the document's own session, and
// a session's documents are weighed by the share of the query's words the session holds.

import { coverageFactor, queryWeights, scoreCounts, wordsFound, type CollectionStats, type QueryWeights } from "./bm25.ts";
import type { ScoredDoc } from "../types.ts";
import { fold } from "../text/normalize.ts";
import { countTerm, type ParsedQuery } from "../text/query.ts";

/**
 * Occurrences of each query term in `text` (the index's own counts: same tokenizer rules), those
 * in its first `input` code units (a tool call's input) counted the query's tuning's inputWeight times.
 */
function termCounts(text: string, parsed: ParsedQuery, input = 0): number[] {
  const counts = (part: string, times: number) => {
    const folded = fold(part);
    return parsed.terms.map((term) => (folded.includes(term.token) ? countTerm(part, folded, term) * times : 0));
  };
  if (input === 0) return counts(text, 1);
  const inInput = counts(text.slice(0, input), parsed.tuning.inputWeight);
  return counts(text.slice(input), 1).map((tf, t) => tf + inInput[t]!);
}

/**
 * Share of the query's words found in the sessions searched (`all`) that one session (`ownWords` of them)
 * holds somewhere: an answer seldom repeats the whole question, but the session it belongs to
 * names what the question is about (`OTEL` in a session about tracing, `stylesheet` where one was
 * added), and a session that never mentions a word the asker used is less likely the one asked
 * about. 1 when no word is found anywhere.
 */
function sessionShare(all: QueryWeights, ownWords: number): number {
  return all.words > 0 && all.tuning.project.sessionShare ? Math.min(1, ownWords / all.words) : 1;
}

/**
 * Scores each of one session's documents again with the idf of `shared` (every session searched)
 * and the average length of `own` (the session's): a word's rarity is a fact of the whole
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
  const score = chunkScorers(parsed, shared)(own);
  for (const doc of docs) {
    doc.tfs ??= termCounts(textOf(doc), parsed, doc.input);
    doc.score = score(doc.tfs, doc.end - doc.start);
  }
}

/** A chunk's score from its term counts and length, as rescore scores it. */
export type ChunkScorer = (tfs: readonly number[], length: number) => number;

/**
 * The ChunkScorer of each session ranked against `shared` (`shared.docs` > 0): the query's
 * weights over it are made once.
 */
export function chunkScorers(parsed: ParsedQuery, shared: CollectionStats): (own: CollectionStats) => ChunkScorer {
  const weights = queryWeights(shared, parsed.terms, parsed.tuning);
  return (own) => {
    const avg = own.docs > 0 ? own.length / own.docs : shared.length / shared.docs;
    const share = sessionShare(weights, wordsFound(own.df, parsed.terms, parsed.tuning));
    return (tfs, length) => scoreCounts(tfs, length, weights, avg) * share;
  };
}

/**
 * Per query term, the most the scorer of `own` (chunkScorers) multiplies its termScore at idf 1
 * by: the term's idf and weight over `shared`, times the session's share of the query's words and
 * the most coverage gives a chunk holding only the words the session holds. A chunk's score is at
 * most the sum over its terms of these times their termScore at idf 1.
 */
export function termFactors(parsed: ParsedQuery, shared: CollectionStats): (own: CollectionStats) => number[] {
  const weights = queryWeights(shared, parsed.terms, parsed.tuning);
  const factors = weights.idfs.slice();
  // Called for each of thousands of holders: one array, filled again (a caller reads it before its next call).
  return (own) => {
    const words = wordsFound(own.df, parsed.terms, parsed.tuning);
    const most = sessionShare(weights, words) * coverageFactor(words, weights.words, parsed.tuning);
    for (let t = 0; t < factors.length; t++) factors[t] = weights.idfs[t]! * most;
    return factors;
  };
}
