// The two verbs behind history_search and history_sessions, each the stages of a search in order:
// parse (parse.ts) → scope (scope.ts) → collect and merge (collect.ts, merge.ts: VerbBackend.run,
// under the call's budget) → answer (answer.ts).

import type { EngramConfig } from "../config/schema.ts";
import type { HistorySource } from "../history/source.ts";
import type { SessionInfo } from "../history/types.ts";
import { now } from "../util/scheduler.ts";
import { searchPage, sessionSummaries, type SummarySource } from "./answer.ts";
import type { SessionsSearchOutcome } from "./merge.ts";
import { compilePhrasings, pageStart, type Query } from "./parse.ts";
import { fusedDepth, fuseRankings } from "./rank/fusion.ts";
import { type RankedSession, rankSessions } from "./rank/rank-sessions.ts";
import type { RegexRunner } from "./scan/regex-runner.ts";
import { listScope, readingDeadline, searchScope } from "./scope.ts";
import type { HitType } from "./text/documents.ts";
import type { SearchTuning } from "./tuning.ts";
import type { SearchAnswer, SearchFilters, SearchRequest, SessionsAnswer, SessionsRequest } from "./types.ts";

/** One search of sessions, as a verb asks the backend for it. */
interface SessionsRun {
  /** The sessions are seen as this session sees them (its own view hides what it has in context). */
  callerSessionId: string;
  /** The query's phrasings (one, or the query and its alternatives): each ranked, in order. */
  queries: Query[];
  filters: SearchFilters;
  sessions: SessionInfo[];
  /** How many results are ranked. */
  limit: number;
  /** When reading stops (`now()`'s clock). */
  deadline: number;
  signal?: AbortSignal;
}

/** What the verbs run on (service.ts). */
export interface VerbBackend extends SummarySource {
  source: HistorySource;
  config(): EngramConfig;
  regexRunner: RegexRunner;
  /** What every stage ranks with (tuning.ts). */
  tuning: SearchTuning;
  /** Per query of the run, its ranking (collected and merged). */
  run(search: SessionsRun): Promise<SessionsSearchOutcome[]>;
}

/** history_search: the best messages of one session, the project's sessions, or every session. */
export async function searchVerb(backend: VerbBackend, request: SearchRequest): Promise<SearchAnswer> {
  const started = now();
  const config = backend.config().search;
  const phrasings = compilePhrasings(request, backend.regexRunner, backend.tuning);
  const limit = request.limit ?? config.message_limit;
  const offset = pageStart(request.offset);
  const filters: SearchFilters = { types: new Set(request.types) };
  if (request.role !== undefined) filters.role = request.role;
  if (request.tool !== undefined) filters.tool = request.tool;
  if (request.after !== undefined) filters.after = request.after;
  if (request.before !== undefined) filters.before = request.before;
  const { sessions, deadline } = await searchScope(backend.source, request, started, config.project_time_budget_ms);
  // The page is ranked to its end and one result past it (whether there is more); with
  // alternatives, each phrasing at least as deep as the fusion reads (rank/fusion.ts).
  const depth = offset + limit + 1;
  const outcomes = await backend.run({
    callerSessionId: request.callerSessionId,
    queries: phrasings.queries,
    filters,
    sessions,
    limit: phrasings.queries.length > 1 ? fusedDepth(depth, backend.tuning) : depth,
    deadline,
    ...(request.signal ? { signal: request.signal } : {}),
  });
  const answer = searchPage(outcomes, phrasings.numbers, request.scope, offset, limit, backend.tuning);
  if (request.scope === "global") {
    const directories = new Map(sessions.map((session) => [session.id, session.directory]));
    for (const result of answer.results) result.directory = directories.get(result.sessionId);
  }
  const unsearched = Math.max(...outcomes.map((outcome) => outcome.unsearched));
  if (unsearched > 0) answer.unsearched = unsearched;
  const corrections = new Map(outcomes.flatMap((outcome) => [...outcome.corrections]));
  if (corrections.size > 0) answer.corrections = corrections;
  return answer;
}

/** history_sessions: the project's (or every project's) sessions, ranked by a query when given. */
export async function sessionsVerb(backend: VerbBackend, request: SessionsRequest): Promise<SessionsAnswer> {
  const started = now();
  const config = backend.config();
  const budgetMs = config.search.project_time_budget_ms;
  const callerSessionId = request.callerSessionId ?? "";
  const offset = pageStart(request.offset);
  // The page is ranked to its end and one session past it (whether there is more).
  const depth = offset + request.limit + 1;
  const all = (await listScope(backend.source, request.global ? callerSessionId : undefined)).filter(
    (s) => request.includeChildren || s.parentId === undefined,
  );
  let ranked: Array<{ session: SessionInfo; snippet?: RankedSession["snippet"] }>;
  let unsearched = 0;
  let by: Map<string, number[]> | undefined;
  let unmatched: number[] = [];
  if (request.query !== undefined) {
    const phrasings = compilePhrasings(
      { query: request.query, ...(request.alternatives ? { alternatives: request.alternatives } : {}) },
      backend.regexRunner,
      backend.tuning,
    );
    const filters: SearchFilters = { types: new Set<HitType>(["text", "tool"]) };
    // The caller's session is ranked by what it said before its live context, as search sees it.
    // Sessions rank by their three best messages and their titles (rank-sessions.ts), boosting
    // (and, ranked from the projection, reading) only the messages that can place.
    const outcomes = await backend.run({
      callerSessionId,
      queries: phrasings.queries,
      filters,
      sessions: all,
      limit: 3,
      deadline: readingDeadline(started, budgetMs),
      ...(request.signal ? { signal: request.signal } : {}),
    });
    unsearched = Math.max(...outcomes.map((outcome) => outcome.unsearched));
    // Each phrasing ranks the sessions to the page's end and one past it, and with alternatives the
    // rankings are fused (rank/fusion.ts). Not deeper: ranking a session reads its best messages,
    // and from the projection 15 deep instead of 6 read three times the messages (issue 51's bench).
    const rankings: RankedSession[][] = [];
    for (const outcome of outcomes) {
      // Keyword queries only (compilePhrasings in the default mode), corrected or not.
      const parsed = (outcome.query as Query & { kind: "keyword" }).parsed;
      rankings.push(await rankSessions(all, outcome.candidates, parsed, depth));
    }
    if (phrasings.queries.length > 1) {
      const fusion = fuseRankings(
        rankings.map((ranking) => ranking.map((one) => ({ key: one.session.id, score: one.score, item: one }))),
        backend.tuning,
      );
      ranked = fusion.map(({ best }) => best.item);
      by = new Map(fusion.map((one) => [one.key, one.by.map((p) => phrasings.numbers[p]!)]));
      unmatched = phrasings.numbers.filter((_, p) => rankings[p]!.length === 0);
    } else ranked = rankings[0]!;
  } else {
    ranked = all.slice(0, depth).map((session) => ({ session }));
  }
  const sessions = await sessionSummaries(ranked.slice(offset, offset + request.limit), backend, {
    callerSessionId,
    previewChars: config.browse.preview_chars,
    deadline: started + budgetMs,
    ...(by ? { by } : {}),
    signal: request.signal,
  });
  const answer: SessionsAnswer = { sessions, offset, more: ranked.length > offset + request.limit };
  if (request.global) answer.global = true;
  if (unsearched > 0) answer.unsearched = unsearched;
  if (unmatched.length > 0) answer.unmatched = unmatched;
  return answer;
}
