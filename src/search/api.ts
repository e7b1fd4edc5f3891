// The search engine's public entry: everything tools/, cli/, hooks/ and the composition root use
// of src/search/. Nothing outside src/search/ imports a deeper module (scripts/import-layers.test.ts).

export { formatSearchAnswer, formatSessionsAnswer } from "./format.ts";
export { createSearchService, MAX_ALTERNATIVES, MAX_OFFSET, MAX_QUERY_CHARS } from "./service.ts";
export type { SearchRequest, SearchScope, SearchService, SessionsRequest } from "./types.ts";
export { HIT_TYPES, type HitType } from "./text/documents.ts";
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
export { ChunkList } from "./index/term-counts.ts";
export { countTuning, sessionTerms, type SessionTerms } from "./many/session-terms.ts";
export { termCeiling } from "./many/projected-ranking.ts";
export type { QueryTerm } from "./text/query.ts";
export { type NearestTerm, WordCorrection } from "./text/typos.ts";
