// What the store-wide projection (src/projection/) uses of search, and nothing else does: the
// contract it implements (types.ts's CandidateFinder and what it answers), how a session is
// counted for it (the one count every search makes), the term ceiling it stores per posting, and
// the typo lookup over its vocabulary. The tools use api.ts.

export { ChunkList } from "./index/term-counts.ts";
export { countTuning, sessionTerms, type SessionTerms } from "./index/session-terms.ts";
export { DEFAULT_TUNING, type SearchTuning } from "./tuning.ts";
export { termCeiling } from "./collect/projected-ranking.ts";
export { HIT_TYPES, type HitType } from "./text/documents.ts";
export type { QueryTerm } from "./text/query.ts";
export { maxEdits, type NearestTerm, nearestTerms, termListVocabulary } from "./text/typos.ts";
export {
  CHUNK_STRIDE,
  TERM_CHUNK_STRIDE,
  type CandidateFinder,
  type ChunkMessage,
  type ChunkPart,
  type ChunkTable,
  type Narrowed,
  type ProjectedHolder,
  type ProjectedSummary,
} from "./types.ts";
