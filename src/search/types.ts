// The contracts search's parts share: a chunk's reference, the scored chunk every scorer (cold
// scan, index, literal/regex) hands to ranking, and the request's filters.

import type { HistoryMessage, Role } from "../history/types.ts";
import type { HitType } from "./text/documents.ts";

/** Where a chunk (a document) is: its part, the part's kind, and its range in the part's searchable text. */
export interface ChunkRef {
  partId: string;
  type: HitType;
  tool?: string;
  start: number;
  end: number;
  /** Code units at the chunk's start that are the tool call's input (counted tuning.ts's inputWeight times). */
  input?: number;
}

/** A chunk of a message with its score. */
export interface ScoredDoc extends ChunkRef {
  message: HistoryMessage;
  score: number;
  /** The chunk's text when the scorer already has it (re-read from the message otherwise). */
  text?: string;
  /** Keyword searches: occurrences of each query term in the chunk (same order as the terms), when known. */
  tfs?: number[];
  /** Where a literal or regex query matched the chunk's text (pattern searches only). */
  spans?: [start: number, end: number][];
}

/** The request's filters on a message and chunk (the index and the scans apply them alike). */
export interface SearchFilters {
  types: ReadonlySet<HitType>;
  role?: Role;
  tool?: string;
  /** Epoch ms bounds on the message's creation time (after < created < before). */
  after?: number;
  before?: number;
}

/** Which documents a search may return (filters and the caller's visible window). */
export type DocFilter = (message: HistoryMessage, type: HitType, tool: string | undefined) => boolean;
