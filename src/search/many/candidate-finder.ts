// A store-wide projection (src/projection/, its contract in types.ts) bound to one search's scope.
// What it tells a many-session search before any session is read: which of the scope's sessions
// may hold the query's terms, and how many documents the others hold and how long they are. The sessions read are then scored against the statistics of
// the whole scope, and typos corrected over all of it, so the answer is the one reading every
// session gives (a session holding no query term adds documents and length, never a match).

import type { SessionInfo } from "../../history/types.ts";
import type { CandidateFinder, ScopeNarrowing } from "../types.ts";

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
