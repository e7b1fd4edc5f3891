// Stage 2 of a search, scope: which sessions a request searches, which of them are read whole
// from the store, and until when. The scope is one session, the project's sessions or every
// session of the store; the call's budget sets when reading stops. A scope of
// `projection.min_sessions` sessions or more asks the store's projection (src/projection/, its
// contract types.ts's CandidateFinder) which sessions it holds as they are now: those holding a
// query term are ranked from it (collect.ts, merge.ts) and only the messages that can place are
// read; those holding none add their documents and length to the statistics; every other one,
// and always the caller's own (whose live context the projection cannot hide), is read whole.

import type { HistorySource } from "../history/source.ts";
import type { SessionInfo } from "../history/types.ts";
import { ArgumentError } from "../history/errors.ts";
import { termKey } from "./parse.ts";
import type { QueryTerm } from "./text/query.ts";
import type { CandidateFinder, Narrowed, ProjectedHolder, ScopeNarrowing } from "./types.ts";

/** Time budget of a one-session search (cold scan or regex) before it answers partial. */
const SESSION_BUDGET_MS = 20_000;
/**
 * A budget is the whole call's, listing included; reading stops this share of it before the end,
 * so that ranking and snippeting what was read fits in the rest (search-notes.md, "history_sessions'
 * cut, bulk stamps, the call's budget" and "Memory and the first search").
 */
const FINISH_SHARE = 0.1;

/** When a search that started at `started` with `budgetMs` stops reading. */
export function readingDeadline(started: number, budgetMs: number): number {
  return started + budgetMs * (1 - FINISH_SHARE);
}

/** This project's sessions, or with a caller, every session of the store holding it. */
export function listScope(source: HistorySource, globalCaller: string | undefined): Promise<SessionInfo[]> {
  if (globalCaller === undefined) return source.listSessions();
  if (!source.listEverySession) throw new ArgumentError('scope "global" is not available: this host\'s store cannot be read directly');
  return source.listEverySession(globalCaller);
}

/**
 * history_search's sessions and reading deadline: one session (a larger budget, that only guards a
 * runaway regex or a huge cold scan), the project's, or every session of the store.
 */
export async function searchScope(
  source: HistorySource,
  request: { scope: "session" | "project" | "global"; sessionId?: string; callerSessionId: string },
  started: number,
  budgetMs: number,
): Promise<{ sessions: SessionInfo[]; deadline: number }> {
  if (request.scope !== "session") {
    const sessions = await listScope(source, request.scope === "global" ? request.callerSessionId : undefined);
    return { sessions, deadline: readingDeadline(started, budgetMs) };
  }
  const sessionId = request.sessionId ?? request.callerSessionId;
  // Only its id is used: the info first read (from the store, or the host's API: a lookup on
  // every warm call cost as much as the search); a session since deleted fails in its read.
  const session = await (source.sessionOnce?.(sessionId, request.callerSessionId) ?? source.getSession(sessionId));
  return { sessions: [session], deadline: readingDeadline(started, Math.max(SESSION_BUDGET_MS, budgetMs)) };
}

/**
 * The projection bound to a scope, when the scope has at least `minSessions` sessions (fewer read
 * faster than they are narrowed). With several phrasings (`phrasingTerms`: all their terms), the
 * projection is asked once for all of them and each phrasing's narrowing is picked from that answer.
 */
export function scopeNarrowing(
  finder: CandidateFinder | undefined,
  scope: readonly SessionInfo[],
  callerSessionId: string,
  minSessions: number,
  phrasingTerms?: readonly QueryTerm[],
): ScopeNarrowing | undefined {
  if (!finder || scope.length < minSessions) return undefined;
  const mustRead = new Set(callerSessionId === "" ? [] : [callerSessionId]);
  const narrowing: ScopeNarrowing = {
    narrow: (terms) => finder.narrow(scope, terms, mustRead),
    nearest: (words, sessionIds) => finder.nearest(words, sessionIds),
  };
  return phrasingTerms && phrasingTerms.length > 0 ? sharedNarrowing(narrowing, phrasingTerms) : narrowing;
}

/** The sessions read whole from the store: those the projection does not hold as they are, or all without it. */
export function readWhole(sessions: readonly SessionInfo[], narrowed: Narrowed | undefined): readonly SessionInfo[] {
  return narrowed?.search ?? sessions;
}

/** A holder's figures for some of the terms it was narrowed for (`columns`: their places there). */
function pickedHolder(holder: ProjectedHolder, columns: readonly number[]): ProjectedHolder {
  const pick = <T>(values: readonly T[]): T[] => columns.map((c) => values[c]!);
  let chunks: ReadonlyArray<readonly number[]> | undefined;
  return {
    docs: holder.docs,
    length: holder.length,
    df: pick(holder.df),
    ceilings: pick(holder.ceilings),
    termChunks: () => (chunks ??= pick(holder.termChunks())),
    table: () => holder.table(),
  };
}

/** The narrowing for a subset of the terms narrowed for: a holder holding none of them joins the rest. */
function pickedNarrowed(narrowed: Narrowed, columns: readonly number[]): Narrowed {
  const projected = new Map<string, ProjectedHolder>();
  const rest = { ids: [...narrowed.rest.ids], docs: narrowed.rest.docs, length: narrowed.rest.length };
  for (const [id, holder] of narrowed.projected) {
    if (columns.some((c) => holder.df[c]! > 0)) projected.set(id, pickedHolder(holder, columns));
    else {
      rest.ids.push(id);
      rest.docs += holder.docs;
      rest.length += holder.length;
    }
  }
  return { search: narrowed.search, projected, rest };
}

/**
 * The scope narrowed once for `terms`; a narrowing asked for terms all among them is picked from
 * that answer, any other (a phrasing's typo corrections) asks the projection.
 */
function sharedNarrowing(narrowing: ScopeNarrowing, terms: readonly QueryTerm[]): ScopeNarrowing {
  const places = new Map(terms.map((term, t) => [termKey(term), t]));
  let once: Promise<Narrowed | undefined> | undefined;
  return {
    nearest: (words, sessionIds) => narrowing.nearest(words, sessionIds),
    async narrow(asked) {
      const columns = asked.map((term) => places.get(termKey(term)));
      if (columns.some((c) => c === undefined)) return narrowing.narrow(asked);
      const narrowed = await (once ??= narrowing.narrow(terms));
      return narrowed && pickedNarrowed(narrowed, columns as number[]);
    },
  };
}
