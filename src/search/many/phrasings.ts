// A search with alternatives: each phrasing (the query, then the alternatives) searched as a query
// of its own over the same sessions, one after the other under the request's one budget. What they
// share is read once: the projection is asked once for every phrasing's terms (each phrasing's
// holders are picked from that answer), and the searcher reads and scans each session once for
// all of them (request-searcher.ts). The rankings are fused by the verb (rank/fusion.ts).

import type { SessionInfo } from "../../history/types.ts";
import type { Narrowed, ProjectedHolder, ScopeNarrowing } from "../types.ts";
import type { QueryTerm } from "../text/query.ts";
import { type SessionsSearchOutcome, searchSessions, type SessionSearcher } from "./search-sessions.ts";
import type { Query } from "../search-one-session.ts";

/** What a term's counts and postings depend on (scan/rescan.ts's key). */
function termKey(term: QueryTerm): string {
  return `${term.token}\u0000${term.cjk ? 1 : 0}`;
}

/** The distinct terms (by what their counts depend on) of the keyword phrasings. */
export function phrasingTerms(queries: readonly Query[]): QueryTerm[] {
  const seen = new Map<string, QueryTerm>();
  for (const query of queries) {
    if (query.kind !== "keyword") continue;
    for (const term of query.parsed.terms) if (!seen.has(termKey(term))) seen.set(termKey(term), term);
  }
  return [...seen.values()];
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

/**
 * Each phrasing's ranking to `options.limit` (rankOnly: no results made), in phrasing order. The
 * searcher must share its reads across the phrasings (request-searcher.ts's phrasingTerms).
 */
export async function searchPhrasings(
  sessions: readonly SessionInfo[],
  queries: readonly Query[],
  searcher: SessionSearcher,
  options: Parameters<typeof searchSessions>[3],
): Promise<SessionsSearchOutcome[]> {
  const terms = phrasingTerms(queries);
  const narrowing = options.narrowing && terms.length > 0 ? sharedNarrowing(options.narrowing, terms) : options.narrowing;
  const outcomes: SessionsSearchOutcome[] = [];
  for (const query of queries) {
    outcomes.push(await searchSessions(sessions, query, searcher, { ...options, rankOnly: true, ...(narrowing ? { narrowing } : {}) }));
  }
  return outcomes;
}
