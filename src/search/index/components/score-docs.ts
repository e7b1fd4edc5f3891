// Scoring a search in the packed postings: BM25 × query-word coverage of every live document
// holding a query term, in typed-array accumulators reused across searches, and the collection
// statistics BM25 reads (project scope sums them over sessions).

import { coverageFactor, groupBit, MAX_COUNTED_TF, queryWeights, termScore, wordsMatched, type CollectionStats } from "../../rank/bm25.ts";
import type { ParsedQuery, QueryTerm } from "../../text/query.ts";
import { countPostings, forEachPosting, type PostingsStore } from "./postings.ts";

/** Per document id: its score, its matched query words (a bit each) while scoring, and the documents touched. */
export interface Scratch {
  score: Float64Array;
  mask: Int32Array;
  touched: Int32Array;
}

const scratchByStore = new WeakMap<PostingsStore, Scratch>();

function scratchFor(store: PostingsStore): Scratch {
  const size = store.length.length;
  let scratch = scratchByStore.get(store);
  if (!scratch || scratch.score.length < size) {
    scratch = { score: new Float64Array(size), mask: new Int32Array(size), touched: new Int32Array(size) };
    scratchByStore.set(store, scratch);
  }
  return scratch;
}

/**
 * Live documents holding a term. Removed (and replaced) documents stay in the postings until a
 * rebuild: counting them would skew idf away from what a fresh build (and the scan) gives.
 */
export function liveDocFrequency(store: PostingsStore, term: number): number {
  if (store.deadDocs === 0) return countPostings(store, term);
  const alive = store.alive;
  let count = 0;
  forEachPosting(store, term, (doc) => {
    if (alive[doc] === 1) count++;
  });
  return count;
}

/** The indexed term of a query term: its id, or -1 when the index holds none. */
function termId(store: PostingsStore, term: QueryTerm): number {
  return store.terms.find(term.token, 0, term.token.length);
}

function statsOf(store: PostingsStore, ids: readonly number[]): CollectionStats {
  const df = ids.map((id) => (id < 0 ? 0 : Math.min(store.liveDocs, liveDocFrequency(store, id))));
  return { docs: store.liveDocs, length: store.liveLength, df };
}

/** The live documents' number, total length and, per query term, how many hold it. */
export function collectionStats(store: PostingsStore, parsed: ParsedQuery): CollectionStats {
  return statsOf(
    store,
    parsed.terms.map((term) => termId(store, term)),
  );
}

/** BM25 × coverage of every live document holding any query term and accepted by `where` (all when absent): touched[0, n) and their scores. */
export function scoreDocs(store: PostingsStore, parsed: ParsedQuery, where: ReadonlySet<number> | undefined): { scratch: Scratch; n: number } {
  const scratch = scratchFor(store);
  const docs = store.liveDocs;
  if (docs === 0) return { scratch, n: 0 };
  const { score, mask, touched } = scratch;
  let n = 0;
  const avg = store.liveLength / docs;
  const alive = store.alive;
  const length = store.length;
  const ids = parsed.terms.map((term) => termId(store, term));
  const stats = statsOf(store, ids);
  const weights = queryWeights(stats, parsed.terms);
  parsed.terms.forEach((term, t) => {
    if (stats.df[t] === 0) return;
    const bit = groupBit(term.group);
    const weight = weights.idfs[t]!;
    forEachPosting(store, ids[t]!, (doc, tf) => {
      if (alive[doc] !== 1) return;
      const s = termScore(Math.min(tf, MAX_COUNTED_TF), weight, length[doc]!, avg);
      if (mask[doc] === 0) {
        touched[n++] = doc;
        score[doc] = s;
        mask[doc] = bit;
      } else {
        score[doc] = score[doc]! + s;
        mask[doc] = mask[doc]! | bit;
      }
    });
  });
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const doc = touched[i]!;
    const matched = mask[doc]!;
    mask[doc] = 0;
    if (where && !where.has(doc)) continue;
    score[doc] = score[doc]! * coverageFactor(wordsMatched(matched), weights.words);
    touched[kept++] = doc;
  }
  return { scratch, n: kept };
}
