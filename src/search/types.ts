// The contracts of search: the two verbs' requests and answers (history_search, history_sessions),
// the scored chunk every scorer (cold scan, index, literal/regex) hands to ranking, the request's
// filters, and what the store-wide projection (src/projection/) answers a many-session search
// (many/candidate-finder.ts binds it to a scope).

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

/** What the projection says of one session it holds as it is now, for these terms (same order as the query's). */
export interface ProjectedTerms {
  docs: number;
  length: number;
  /** Per term, the documents holding it. */
  df: number[];
  /** Per term, its reach in the session (projection/session-terms.ts), 0 where no document holds it. */
  reach: number[];
}

export interface Narrowed {
  /** The sessions to read, in scope order: those that may hold a term, and those not projected as they are now. */
  search: SessionInfo[];
  /** Of `search`, those projected as they are now (the others have no entry), by id. */
  projected: Map<string, ProjectedTerms>;
  /** The others, none holding a query term: their ids, documents and total length (code units). */
  rest: { ids: string[]; docs: number; length: number };
}

export interface CandidateFinder {
  /**
   * The scope split for these terms, or undefined when the finder cannot say (turned off, not
   * built for this tool visibility, failing): every session is read then. `mustRead`: sessions
   * whose searchable view the projection does not see (the caller's own hides its live context).
   */
  narrow(scope: readonly SessionInfo[], terms: readonly QueryTerm[], mustRead: ReadonlySet<string>): Promise<Narrowed | undefined>;
  /** Per word, the nearest term each of `sessionIds` holds, chosen as that session's own search chooses it. */
  nearest(words: readonly string[], sessionIds: readonly string[]): Promise<Map<string, NearestTerm[]>>;
}

/** A finder bound to one request's scope, as project-search.ts uses it. */
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
}

export interface SessionsRequest {
  query?: string;
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
}

export interface SessionsAnswer {
  /** The page: the ranking's (or listing's) sessions from `offset` on, at most the request's limit. */
  sessions: SessionSummary[];
  offset: number;
  /** The ranking holds sessions past this page. */
  more: boolean;
  global?: boolean;
  unsearched?: number;
}

export interface SearchService {
  search(request: SearchRequest): Promise<SearchAnswer>;
  sessions(request: SessionsRequest): Promise<SessionsAnswer>;
  /** Ends the regex worker and drops every index, stopping their builds (plugin dispose). */
  close(): void;
}
