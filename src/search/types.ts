// The contracts of search: the two verbs' requests and answers (history_search, history_sessions),
// the scored chunk every scorer (cold scan, index, literal/regex) hands to ranking, the request's
// filters, and what the store-wide projection (src/projection/) answers a many-session search
// (scope.ts binds it to a scope).

import type { HistoryMessage, Role, SessionInfo } from "../history/types.ts";
import type { HitType } from "./text/documents.ts";
import type { QueryTerm } from "./text/query.ts";
import type { NearestTerm } from "./text/typos.ts";

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

/** A message of a projected session, as ranking reads it (never its text). */
export interface ChunkMessage {
  id: string;
  role: Role;
  /** Epoch ms; 0 when unknown. */
  created: number;
  /** CHUNK_SUMMARY | CHUNK_HOST_WRITTEN | CHUNK_CONTINUE. */
  flags: number;
  /** Its turn number (history/turns.ts), as the session's view numbers it. */
  turn: number;
}

/** A part of a projected session holding chunks. */
export interface ChunkPart {
  id: string;
  type: HitType;
  tool?: string;
}

/** ChunkMessage flags. */
export const CHUNK_SUMMARY = 1;
export const CHUNK_HOST_WRITTEN = 2;
export const CHUNK_CONTINUE = 4;
/** Values per chunk in ChunkTable.chunks: message, part, start, end, input. */
export const CHUNK_STRIDE = 5;
/**
 * Values per chunk in a term's chunk list (ProjectedHolder.termChunks, SessionTerms.postings):
 * chunk, tf, length, message place. Length and message are there so that a session's best score
 * can be bounded from its postings alone, before its chunk table is read.
 */
export const TERM_CHUNK_STRIDE = 4;

/**
 * What the projection keeps of one session's chunks (documents), in the session's order: enough
 * to score each as a search of the session would, without reading it. A chunk, message and part
 * is its place in these tables.
 */
export interface ChunkTable {
  /** Per chunk, CHUNK_STRIDE values: message place, part place, start, end, input (code units of a call's input at its start). */
  readonly chunks: ArrayLike<number>;
  message(place: number): ChunkMessage;
  part(place: number): ChunkPart;
}

/** What the projection says of one session it holds as it is now and that holds a query term. */
export interface ProjectedHolder {
  docs: number;
  length: number;
  /** Per query term (the query's order), the documents holding it. */
  df: number[];
  /** Per query term, the most one of its messages scores from it (projected-ranking.ts's termCeiling, rounded up); 0 where none holds it. */
  ceilings: readonly number[];
  /**
   * Per query term, its chunks here, flat [chunk, tf, length, message, …] (TERM_CHUNK_STRIDE),
   * chunks ascending, tf as rescore.ts counts it; empty where none holds it. Decoded when first
   * asked (the same arrays after): most holders of a common word are never asked.
   */
  termChunks(): ReadonlyArray<readonly number[]>;
  /** Its chunk table, read from the projection when first asked (the same object after). */
  table(): ChunkTable;
}

export interface Narrowed {
  /** The sessions to read from the store, in scope order: those the projection does not hold as they are now. */
  search: SessionInfo[];
  /** The sessions it holds as they are now that hold a query term, by id: ranked from the projection. */
  projected: Map<string, ProjectedHolder>;
  /** The others, none holding a query term: their ids, documents and total length (code units). */
  rest: { ids: string[]; docs: number; length: number };
}

/** What the projection keeps of a session for history_sessions' list. */
export interface ProjectedSummary {
  turns: number;
  /** The first text its user wrote, cut to what a preview can show. */
  preview: string;
}

export interface CandidateFinder {
  /**
   * The scope split for these terms, or undefined when the finder cannot say (turned off, not
   * built for this tool visibility, failing): every session is read then. `mustRead`: sessions
   * whose searchable view the projection does not see (the caller's own hides its live context).
   */
  narrow(scope: readonly SessionInfo[], terms: readonly QueryTerm[], mustRead: ReadonlySet<string>): Promise<Narrowed | undefined>;
  /** Per word, the nearest terms of the projection's vocabulary that `sessionIds` hold (text/typos.ts's measure), with their document counts there. */
  nearest(words: readonly string[], sessionIds: readonly string[]): Promise<Map<string, NearestTerm[]>>;
  /** The session's summary when the projection holds it as it is now. */
  summary(sessionId: string, updated: number | undefined): ProjectedSummary | undefined;
}

/** A finder bound to one request's scope (scope.ts), as collect/collect.ts and merge.ts use it. */
export interface ScopeNarrowing {
  narrow(terms: readonly QueryTerm[]): Promise<Narrowed | undefined>;
  nearest(words: readonly string[], sessionIds: readonly string[]): Promise<Map<string, NearestTerm[]>>;
}

/** "project": the sessions the host lists for this project; "global": every session in the store. */
export type SearchScope = "session" | "project" | "global";

export interface SearchRequest {
  query: string;
  /** Session to search (scope "session"); the caller's own session when omitted. */
  sessionId?: string;
  /** The calling session: its own view hides what the model already has in context. */
  callerSessionId: string;
  scope: SearchScope;
  literal?: boolean;
  regex?: boolean;
  types: readonly HitType[];
  role?: Role;
  tool?: string;
  after?: number;
  before?: number;
  limit?: number;
  /**
   * Up to MAX_ALTERNATIVES other phrasings of the same need, in the query's mode: each ranked as
   * a query of its own, the rankings fused (rank/fusion.ts).
   */
  alternatives?: readonly string[];
  /** Results of the ranking to pass over first (paging; default 0, at most MAX_OFFSET). */
  offset?: number;
  /** The tool call's cancellation: reads and scans stop at their next slice. */
  signal?: AbortSignal;
}

/** A part of a result message that matched, with its snippets. */
export interface HitResult {
  type: HitType;
  partId: string;
  tool?: string;
  snippets: string[];
}

export interface MessageResult {
  message: HistoryMessage;
  score: number;
  hits: HitResult[];
  /** Hits (parts) matched beyond those returned. */
  remainHits: number;
}

export interface SessionResult extends MessageResult {
  sessionId: string;
  turnNumber: number;
  /** Global scope: the directory the session ran in. */
  directory?: string;
  /** With alternatives: the phrasings that ranked it (0: the query, 1…: the alternatives in order). */
  by?: number[];
}

export interface SearchAnswer {
  /** The page: the ranking's results from `offset` on, at most the request's limit. */
  results: SessionResult[];
  scope: SearchScope;
  /** Where the page starts in the ranking. */
  offset: number;
  /** The ranking holds results past this page. */
  more: boolean;
  /** Project scope: sessions the time budget left unsearched. */
  unsearched?: number;
  /** Query words found nowhere that were searched as their nearest indexed term instead. */
  corrections?: Map<string, string>;
  /** With alternatives: the phrasings that found nothing (numbered as SessionResult.by). */
  unmatched?: number[];
}

export interface SessionsRequest {
  query?: string;
  /** Other phrasings of the query, as SearchRequest.alternatives. */
  alternatives?: readonly string[];
  limit: number;
  /** Sessions of the ranking (or listing) to pass over first (paging; default 0, at most MAX_OFFSET). */
  offset?: number;
  includeChildren: boolean;
  /**
   * The calling session ("" or absent from the CLI): what it has in context does not rank it, and
   * global scope reads the store holding it.
   */
  callerSessionId?: string;
  /** Every project's sessions. */
  global?: boolean;
  signal?: AbortSignal;
}

export interface SessionSummary {
  session: SessionInfo;
  turns: number;
  preview: string;
  snippet?: string;
  /** With alternatives: the phrasings that ranked it, as SessionResult.by. */
  by?: number[];
}

export interface SessionsAnswer {
  /** The page: the ranking's (or listing's) sessions from `offset` on, at most the request's limit. */
  sessions: SessionSummary[];
  offset: number;
  /** The ranking holds sessions past this page. */
  more: boolean;
  global?: boolean;
  unsearched?: number;
  /** With alternatives: the phrasings that found no session. */
  unmatched?: number[];
}

export interface SearchService {
  search(request: SearchRequest): Promise<SearchAnswer>;
  sessions(request: SessionsRequest): Promise<SessionsAnswer>;
  /** Ends the regex worker and drops every index, stopping their builds (plugin dispose). */
  close(): void;
}
