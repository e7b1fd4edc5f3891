// The two verbs behind history_search and history_sessions: a request checked and compiled, its
// scope listed, its sessions searched under the call's time budget (VerbBackend.run), the answer made.

import type { EngramConfig } from "../config/schema.ts";
import { ArgumentError } from "../history/errors.ts";
import { firstUserText } from "../history/preview.ts";
import type { HistorySource } from "../history/source.ts";
import { clip } from "../history/text.ts";
import type { SessionInfo } from "../history/types.ts";
import { lastTurnNumber } from "../history/turns.ts";
import type { SessionView } from "../history/view.ts";
import type { SessionsSearchOutcome } from "./many/search-sessions.ts";
import { fusedDepth, fuseRankings } from "./rank/fusion.ts";
import { type RankedSession, rankSessions } from "./rank/rank-sessions.ts";
import type { RegexRunner } from "./scan/regex-runner.ts";
import { literalMatcher, regexMatcher } from "./scan/pattern.ts";
import type { Query } from "./search-one-session.ts";
import type { HitType } from "./text/documents.ts";
import { parseQuery } from "./text/query.ts";
import type { ProjectedSummary, SearchAnswer, SearchFilters, SearchRequest, SearchScope, SessionsAnswer, SessionsRequest, SessionSummary } from "./types.ts";
import { now } from "../util/scheduler.ts";

export const MAX_QUERY_CHARS = 500;
/** Other phrasings a search takes beside its query (history_search's `alternatives`). */
export const MAX_ALTERNATIVES = 3;
/**
 * The deepest page start: a page is a slice of one ranking of offset + limit + 1 results (the
 * one past the page says whether there is more), so the depth a search ranks stays bounded.
 */
export const MAX_OFFSET = 1_000;
/** Time budget of a one-session search (cold scan or regex) before it answers partial. */
const SESSION_BUDGET_MS = 20_000;
/**
 * A budget is the whole call's, listing included; reading stops this share of it before the end,
 * so that ranking and snippeting what was read fits in the rest (heavy round: the reads in flight
 * and the ranking took 30 to 60 ms past a 2 s deadline; search-notes.md, "history_sessions' cut,
 * bulk stamps, the call's budget"; at 0.05, the host's first global search, the first call of
 * its process, still took 2,126 and 2,128 ms in two rounds of four: "Memory and the first search").
 */
const FINISH_SHARE = 0.1;

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
export interface VerbBackend {
  source: HistorySource;
  config(): EngramConfig;
  regexRunner: RegexRunner;
  /** Per query of the run, its ranking. */
  run(search: SessionsRun): Promise<SessionsSearchOutcome[]>;
  loadView(sessionId: string, callerSessionId: string, signal?: AbortSignal): Promise<SessionView>;
  /** A session's turns and preview from the projection, when it holds the session as it is. */
  projectedSummary(session: SessionInfo): ProjectedSummary | undefined;
}

/** When a search that started at `started` with `budgetMs` stops reading. */
function readingDeadline(started: number, budgetMs: number): number {
  return started + budgetMs * (1 - FINISH_SHARE);
}

/** The request's page start, checked. */
function pageStart(offset: number | undefined): number {
  if (offset === undefined) return 0;
  if (!Number.isInteger(offset) || offset < 0 || offset > MAX_OFFSET)
    throw new ArgumentError(`offset must be an integer from 0 to ${MAX_OFFSET} (got ${offset})`);
  return offset;
}

/** `query` compiled in the request's mode; `name`: the parameter errors name. */
function compileQuery(query: string, mode: { literal?: boolean; regex?: boolean }, regexRunner: RegexRunner, name = "query"): Query {
  if (query.trim().length === 0) throw new ArgumentError(`${name} must be a non-empty string`);
  if (query.length > MAX_QUERY_CHARS) throw new ArgumentError(`${name} must be at most ${MAX_QUERY_CHARS} characters (got ${query.length})`);
  if (mode.literal && mode.regex) throw new ArgumentError("literal and regex cannot both be true");
  if (mode.literal) return { kind: "pattern", matcher: literalMatcher(query) };
  if (mode.regex) {
    try {
      return { kind: "pattern", matcher: regexMatcher(query, regexRunner) };
    } catch (error) {
      // pattern.ts words its errors for `regex`: an alternative's says which one.
      if (name !== "query" && error instanceof ArgumentError) throw new ArgumentError(`${name}: ${error.message}`);
      throw error;
    }
  }
  const parsed = parseQuery(query);
  if (parsed.terms.length === 0) {
    throw new ArgumentError(
      `${name} has no searchable word: single letters and punctuation are not indexed; use a longer word, or literal=true for an exact substring`,
    );
  }
  return { kind: "keyword", text: query, parsed };
}

/** A request's phrasings: the query's, then each alternative's not repeating an earlier one. */
interface Phrasings {
  queries: Query[];
  /** Per query, its number: 0 the query, 1… the alternative's place in `alternatives` plus one. */
  numbers: number[];
}

/**
 * The query and its alternatives compiled in the request's mode. An alternative repeating the
 * query or an earlier alternative (trimmed) is searched once, under the first one's number.
 */
function compilePhrasings(
  request: { query: string; alternatives?: readonly string[]; literal?: boolean; regex?: boolean },
  regexRunner: RegexRunner,
): Phrasings {
  const phrasings: Phrasings = { queries: [compileQuery(request.query, request, regexRunner)], numbers: [0] };
  const alternatives: unknown = request.alternatives;
  if (alternatives === undefined) return phrasings;
  if (!Array.isArray(alternatives) || alternatives.length > MAX_ALTERNATIVES) {
    const got = Array.isArray(alternatives) ? `${alternatives.length} strings` : typeof alternatives;
    throw new ArgumentError(`alternatives must be a list of at most ${MAX_ALTERNATIVES} strings (got ${got})`);
  }
  const seen = new Set([request.query.trim()]);
  alternatives.forEach((alternative: unknown, i) => {
    const name = `alternatives[${i}]`;
    if (typeof alternative !== "string") throw new ArgumentError(`${name} must be a string (got ${alternative === null ? "null" : typeof alternative})`);
    const query = compileQuery(alternative.trim(), request, regexRunner, name);
    if (seen.has(alternative.trim())) return;
    seen.add(alternative.trim());
    phrasings.queries.push(query);
    phrasings.numbers.push(i + 1);
  });
  return phrasings;
}

/** This project's sessions, or with a caller, every session of the store holding it. */
function listScope(source: HistorySource, globalCaller: string | undefined): Promise<SessionInfo[]> {
  if (globalCaller === undefined) return source.listSessions();
  if (!source.listEverySession) throw new ArgumentError('scope "global" is not available: this host\'s store cannot be read directly');
  return source.listEverySession(globalCaller);
}

/** history_search: the best messages of one session, the project's sessions, or every session. */
export async function searchVerb(backend: VerbBackend, request: SearchRequest): Promise<SearchAnswer> {
  const started = now();
  const config = backend.config().search;
  const phrasings = compilePhrasings(request, backend.regexRunner);
  const limit = request.limit ?? config.message_limit;
  const offset = pageStart(request.offset);
  const filters: SearchFilters = { types: new Set(request.types) };
  if (request.role !== undefined) filters.role = request.role;
  if (request.tool !== undefined) filters.tool = request.tool;
  if (request.after !== undefined) filters.after = request.after;
  if (request.before !== undefined) filters.before = request.before;
  let sessions: SessionInfo[];
  let deadline: number;
  if (request.scope !== "session") {
    sessions = await listScope(backend.source, request.scope === "global" ? request.callerSessionId : undefined);
    deadline = readingDeadline(started, config.project_time_budget_ms);
  } else {
    const sessionId = request.sessionId ?? request.callerSessionId;
    // Only its id is used: the info first read (from the store, or the host's API: a lookup on
    // every warm call cost as much as the search); a session since deleted fails in its read.
    sessions = [await (backend.source.sessionOnce?.(sessionId, request.callerSessionId) ?? backend.source.getSession(sessionId))];
    // One session: a larger budget that only guards a runaway regex or a huge cold scan.
    deadline = readingDeadline(started, Math.max(SESSION_BUDGET_MS, config.project_time_budget_ms));
  }
  const fused = phrasings.queries.length > 1;
  // The page is ranked to its end and one result past it (whether there is more); with
  // alternatives, each phrasing at least as deep as the fusion reads (rank/fusion.ts).
  const outcomes = await backend.run({
    callerSessionId: request.callerSessionId,
    queries: phrasings.queries,
    filters,
    sessions,
    limit: fused ? fusedDepth(offset + limit + 1) : offset + limit + 1,
    deadline,
    ...(request.signal ? { signal: request.signal } : {}),
  });
  const answer: SearchAnswer = fused
    ? fusedPage(outcomes, phrasings.numbers, request.scope, offset, limit)
    : onePage(outcomes[0]!, request.scope, offset, limit);
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

/** A search's page of its one ranking. */
function onePage(outcome: SessionsSearchOutcome, scope: SearchScope, offset: number, limit: number): SearchAnswer {
  return { results: outcome.results.slice(offset, offset + limit), scope, offset, more: outcome.results.length > offset + limit };
}

/**
 * A search's page of its phrasings' rankings fused: each result shown as the phrasing that ranked
 * it highest found it, with the numbers of those that ranked it (`numbers`: per phrasing, its own).
 */
function fusedPage(outcomes: readonly SessionsSearchOutcome[], numbers: readonly number[], scope: SearchScope, offset: number, limit: number): SearchAnswer {
  const fused = fuseRankings(
    outcomes.map((outcome) =>
      outcome.ranked.map((entry) => ({ key: `${entry.key}\u0000${entry.group.message.id}`, score: entry.group.score, item: { outcome, entry } })),
    ),
  );
  const results = fused
    .slice(offset, offset + limit)
    .map(({ by, best }) => Object.assign(best.item.outcome.resultOf(best.item.entry), { by: by.map((p) => numbers[p]!) }));
  const answer: SearchAnswer = { results, scope, offset, more: fused.length > offset + limit };
  const unmatched = numbers.filter((_, p) => outcomes[p]!.ranked.length === 0);
  if (unmatched.length > 0) answer.unmatched = unmatched;
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
    const phrasings = compilePhrasings({ query: request.query, ...(request.alternatives ? { alternatives: request.alternatives } : {}) }, backend.regexRunner);
    const fused = phrasings.queries.length > 1;
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
      // Keyword queries only (compileQuery in the default mode), corrected or not.
      const parsed = (outcome.query as Query & { kind: "keyword" }).parsed;
      rankings.push(await rankSessions(all, outcome.candidates, parsed, depth));
    }
    if (fused) {
      const fusion = fuseRankings(rankings.map((ranking) => ranking.map((one) => ({ key: one.session.id, score: one.score, item: one }))));
      ranked = fusion.map(({ best }) => best.item);
      by = new Map(fusion.map((one) => [one.key, one.by.map((p) => phrasings.numbers[p]!)]));
      unmatched = phrasings.numbers.filter((_, p) => rankings[p]!.length === 0);
    } else ranked = rankings[0]!;
  } else {
    ranked = all.slice(0, depth).map((session) => ({ session }));
  }
  const chosen = ranked.slice(offset, offset + request.limit);
  const summaries: SessionSummary[] = [];
  // The chosen sessions' summaries: the projection's, else read (within the call's budget).
  const deadline = started + budgetMs;
  for (const { session, snippet: snippetOf } of chosen) {
    const projected = session.id === callerSessionId ? undefined : backend.projectedSummary(session);
    let turns = projected?.turns ?? 0;
    let first = projected?.preview ?? "";
    if (!projected && now() <= deadline) {
      try {
        const view = await backend.loadView(session.id, "", request.signal);
        turns = lastTurnNumber(view);
        first = firstUserText(view);
      } catch {
        // listed but unreadable: keep it with what the listing says
        request.signal?.throwIfAborted();
      }
    }
    const summary: SessionSummary = { session, turns, preview: clip(first, config.browse.preview_chars) };
    const snippet = await snippetOf?.();
    if (snippet !== undefined) summary.snippet = snippet;
    const found = by?.get(session.id);
    if (found) summary.by = found;
    summaries.push(summary);
  }
  const answer: SessionsAnswer = { sessions: summaries, offset, more: ranked.length > offset + request.limit };
  if (request.global) answer.global = true;
  if (unsearched > 0) answer.unsearched = unsearched;
  if (unmatched.length > 0) answer.unmatched = unmatched;
  return answer;
}
