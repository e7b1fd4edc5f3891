// The search engine's public entry: everything tools/, cli/, hooks/ and the composition root use
// of src/search/ (the projection has its own, projection-contract.ts). Nothing outside src/search/
// imports a deeper module (scripts/import-layers.test.ts).

export { formatSearchAnswer, formatSessionsAnswer } from "./answer.ts";
export { createSearchService, MAX_ALTERNATIVES, MAX_OFFSET, MAX_QUERY_CHARS } from "./service.ts";
export { DEFAULT_TUNING, type SearchTuning } from "./tuning.ts";
export type { SearchRequest, SearchScope, SearchService, SessionsRequest } from "./types.ts";
export { HIT_TYPES, type HitType } from "./text/documents.ts";
