// What a store-wide projection (host/projection/) tells a many-session search before any session
// is read: which of the scope's sessions may hold the query's terms, and how many documents the
// others hold and how long they are. The sessions read are then scored against the statistics of
// the whole scope, and typos corrected over all of it, so the answer is the one reading every
// session gives (a session holding no query term adds documents and length, never a match).

import type { SessionInfo } from "../history/types.ts";
import type { QueryTerm } from "./text/query.ts";
import type { NearestTerm } from "./text/typos.ts";

/** What the projection says of one session it holds as it is now, for these terms (same order as the query's). */
export interface ProjectedTerms {
  docs: number;
  length: number;
  /** Per term, the documents holding it. */
  df: number[];
  /** Per term, its saturation bound in the session (session-terms.ts), 0 where no document holds it. */
  saturation: number[];
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

/** The finder bound to a scope, when the scope has at least `minSessions` sessions (fewer read faster than they are narrowed). */
export function scopeNarrowing(
  finder: CandidateFinder | undefined,
  scope: readonly SessionInfo[],
  callerSessionId: string,
  minSessions: number,
): ScopeNarrowing | undefined {
  if (!finder || scope.length < minSessions) return undefined;
  const mustRead = new Set(callerSessionId === "" ? [] : [callerSessionId]);
  return {
    narrow: (terms) => finder.narrow(scope, terms, mustRead),
    nearest: (words, sessionIds) => finder.nearest(words, sessionIds),
  };
}
