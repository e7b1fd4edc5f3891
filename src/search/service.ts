// The search engine the plugin keeps across tool calls: the byte-bounded index cache, the build
// queue, and the two entry points behind history_search and history_sessions.

import type { EngramConfig } from "../config/schema.ts";
import { ArgumentError } from "../history/errors.ts";
import { authoredText } from "../history/preview.ts";
import { clip } from "../history/text.ts";
import type { HistoryMessage, Role, SessionInfo } from "../history/types.ts";
import type { ToolVisibility } from "../history/tool-visibility.ts";
import { messageIndex, type SessionView } from "../history/view.ts";
import type { HistorySource } from "../history/source.ts";
import { BoundedMap } from "../util/bounded-map.ts";
import { scopeNarrowing } from "./many/candidate-finder.ts";
import { BuildQueue, IndexBuilder } from "./index/build.ts";
import type { IndexSetup } from "./index/session-index.ts";
import type { HitType } from "./text/documents.ts";
import { literalMatcher, regexMatcher } from "./scan/pattern.ts";
import { RegexRunner } from "./scan/regex-runner.ts";
import { searchProject, type SessionResult } from "./many/project-search.ts";
import { rankSessions } from "./rank/rank-sessions.ts";
import { SessionCutRanking } from "./many/session-cut.ts";
import { messageScore, messageScoreParts, partScore, rankPool } from "./rank/rank.ts";
import type { CandidateFinder, SearchFilters } from "./types.ts";
import type { CutRanking } from "./many/score-cut.ts";
import { asSearch, maybeYield, now } from "../util/scheduler.ts";
import { collectSession, nearestTerms, sessionCandidates, type Query } from "./session-search.ts";
import { parseQuery } from "./text/query.ts";
import { ViewCache } from "../history/view-cache.ts";

export const MAX_QUERY_CHARS = 500;
/** Time budget of a one-session search (cold scan or regex) before it answers partial. */
const SESSION_BUDGET_MS = 20_000;
/**
 * A budget is the whole call's, listing included; reading stops this share of it before the end,
 * so that ranking and snippeting what was read fits in the rest (heavy round: the reads in flight
 * and the ranking took 30 to 60 ms past a 2 s deadline; search-notes.md, "history_sessions' cut,
 * bulk stamps, the call's budget").
 */
const FINISH_SHARE = 0.05;

/** When a search that started at `started` with `budgetMs` stops reading. */
function readingDeadline(started: number, budgetMs: number): number {
  return started + budgetMs * (1 - FINISH_SHARE);
}

export interface SearchServiceOptions {
  source: HistorySource;
  config(): EngramConfig;
  visibility(): ToolVisibility;
  /** Session views, shared with the browse tools (a new cache when absent). */
  views?: ViewCache;
  /** The store's projection: many-session keyword searches read only the sessions it names. */
  finder?: CandidateFinder;
}

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
  /** The tool call's cancellation: reads and scans stop at their next slice. */
  signal?: AbortSignal;
}

/** "project": the sessions the host lists for this project; "global": every session in the store. */
export type SearchScope = "session" | "project" | "global";

export interface SearchAnswer {
  results: SessionResult[];
  scope: SearchScope;
  /** Project scope: sessions the time budget left unsearched. */
  unsearched?: number;
  /** Query words found nowhere that were searched as their nearest indexed term instead. */
  corrections?: Map<string, string>;
}

export interface SessionsRequest {
  query?: string;
  limit: number;
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

interface SessionSummary {
  session: SessionInfo;
  turns: number;
  preview: string;
  snippet?: string;
}

export interface SessionsAnswer {
  sessions: SessionSummary[];
  global?: boolean;
  unsearched?: number;
}

export interface SearchService {
  search(request: SearchRequest): Promise<SearchAnswer>;
  sessions(request: SessionsRequest): Promise<SessionsAnswer>;
  /** Ends the regex worker and drops every index, stopping their builds (plugin dispose). */
  close(): void;
}

/**
 * The service with what tests and the bench look into; not part of search's entry (api.ts): the
 * plugin and the command line hold a SearchService.
 */
export interface SearchEngine extends SearchService {
  /** Cached session indexes, each with its builder. */
  readonly cache: BoundedMap<string, IndexBuilder>;
  /** Builds the named session's index (resolves when it is current) and returns its builder. */
  buildIndex(sessionId: string): Promise<IndexBuilder | undefined>;
}

function compileQuery(request: { query: string; literal?: boolean; regex?: boolean }, regexRunner: RegexRunner): Query {
  const query = request.query;
  if (query.trim().length === 0) throw new ArgumentError("query must be a non-empty string");
  if (query.length > MAX_QUERY_CHARS) throw new ArgumentError(`query must be at most ${MAX_QUERY_CHARS} characters (got ${query.length})`);
  if (request.literal && request.regex) throw new ArgumentError("literal and regex cannot both be true");
  if (request.literal) return { kind: "pattern", matcher: literalMatcher(query) };
  if (request.regex) return { kind: "pattern", matcher: regexMatcher(query, regexRunner) };
  const parsed = parseQuery(query);
  if (parsed.terms.length === 0) {
    throw new ArgumentError(
      "query has no searchable word: single letters and punctuation are not indexed; use a longer word, or literal=true for an exact substring",
    );
  }
  return { kind: "keyword", text: query, parsed };
}

function visibilityKey(config: EngramConfig): string {
  return JSON.stringify([config.show_tool_input, config.show_tool_output]);
}

function firstUserText(view: SessionView): string {
  for (const message of view.messages) {
    if (message.role !== "user") continue;
    const text = message.parts.find(authoredText);
    if (text) return text.text;
  }
  return "";
}

export function createSearchService(options: SearchServiceOptions): SearchService {
  return createSearchEngine(options);
}

/** The search service, with its index cache open to tests and the bench (SearchEngine). */
export function createSearchEngine(options: SearchServiceOptions): SearchEngine {
  const { source } = options;
  const queue = new BuildQueue();
  // Indexes grow while they build: their bytes are read again on every trim.
  const cache = new BoundedMap<string, IndexBuilder>({
    max: options.config().search.cache_bytes,
    weight: (builder) => builder.bytes(),
    onRemove: (builder) => builder.dispose(),
  });
  const regexRunner = new RegexRunner();
  const views = options.views ?? new ViewCache();

  function indexSetup(): IndexSetup {
    // The index returns the messages any allowed request can rank (rankMessages takes its pool
    // from them): Orama's index search has no per-query limit.
    const messages = { groups: () => rankPool(options.config().search.max_message_limit), score: messageScore, partScore, counted: messageScoreParts() };
    return { visibility: options.visibility(), messages };
  }

  let cacheBytes = options.config().search.cache_bytes;
  /** The index cache's bound follows the config (enforced when it changes, not on every lookup). */
  function applyCacheBound(): void {
    const bytes = options.config().search.cache_bytes;
    if (bytes !== cacheBytes) cache.setMax((cacheBytes = bytes));
  }

  /** The session's index builder in the cache (made, with nothing built, when absent). */
  function builderOf(sessionId: string): IndexBuilder {
    const key = builderKey(sessionId);
    let builder = cache.get(key);
    if (!builder) {
      builder = new IndexBuilder(indexSetup(), queue);
      cache.set(key, builder);
    }
    return builder;
  }

  /** The session's index builder if it has one (a search of it alone made it). */
  function existingBuilder(sessionId: string): IndexBuilder | undefined {
    return cache.get(builderKey(sessionId));
  }

  function builderKey(sessionId: string): string {
    applyCacheBound();
    return `${sessionId}\u0000${visibilityKey(options.config())}`;
  }

  /**
   * Other sessions' views by the very list they were made from: a source never changes a list it
   * returned, so an unchanged session (most of a project search) costs one lookup, and the view
   * goes when the source drops the list.
   */
  const viewsByList = new WeakMap<readonly HistoryMessage[], SessionView>();

  async function loadView(sessionId: string, callerSessionId: string, signal?: AbortSignal): Promise<SessionView> {
    const messages = await source.loadMessages(sessionId, signal ? { signal } : {});
    if (sessionId === callerSessionId) return views.view(sessionId, messages, true);
    let view = viewsByList.get(messages);
    if (view?.sessionId !== sessionId) viewsByList.set(messages, (view = views.view(sessionId, messages, false)));
    return view;
  }

  /**
   * The view, or undefined when the deadline passes first: the read goes on and fills the cache
   * for the next call, but this answer does not wait for it.
   */
  async function viewBefore(sessionId: string, callerSessionId: string, deadline: number, signal?: AbortSignal): Promise<SessionView | undefined> {
    const loading = loadView(sessionId, callerSessionId, signal);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - now()))));
    loading.catch(() => {}); // a read that fails after the deadline has no one to tell
    try {
      return await Promise.race([loading, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Searches `sessions` as seen by the calling session (its own view hides what it has in context). */
  async function runSearch(
    callerSessionId: string,
    query: Query,
    filters: SearchFilters,
    limit: number,
    sessions: SessionInfo[],
    signal: AbortSignal | undefined,
    deadline: number,
    cutRanking?: () => CutRanking,
  ) {
    const config = options.config().search;
    const limits = { limit, maxHits: config.max_hits_per_message, maxSnippets: config.max_snippets_per_hit, snippetChars: config.snippet_chars };
    const visibility = options.visibility();
    return searchProject(
      sessions,
      query,
      async (session, deadline, query, corrected, first) => {
        const view = await viewBefore(session.id, callerSessionId, deadline, signal);
        if (!view) {
          const none = { docs: [], via: "scan" as const };
          return { collected: { ...none, timedOut: true }, candidates: () => sessionCandidates(none, query, limits, { visibility }), turnOf: () => 0 };
        }
        // The read and the view were one synchronous stretch: the search starts a fresh one
        // when that one is spent (a forced turn per session would cost a project search its budget).
        await maybeYield();
        signal?.throwIfAborted();
        const alone = sessions.length === 1;
        // A session searched alone gets an index: it is likely searched again. One of many is
        // scanned (through the index it has, if any), and no first build is started for it: a
        // global search read thousands of sessions once each and queued as many builds, which
        // then took the host's thread between searches, and the memory the cache allows, for
        // indexes hardly any later search used (docs/search-notes.md, "Index builds in many-session searches").
        const builder = alone ? builderOf(session.id) : existingBuilder(session.id);
        // A search again with typos corrected scans as the first pass did: waiting for the build
        // its scan started would give the first search of a session the build's time.
        const waitForBuild = alone && !corrected;
        const pool = alone ? rankPool(limit) : undefined;
        const searchOptions = { visibility, builder, deadline, signal, waitForBuild, turnPerPhase: alone, pool, first: first?.collected };
        const collected = await collectSession(view, query, filters, searchOptions);
        return {
          collected,
          candidates: (shared) => sessionCandidates(collected, query, limits, searchOptions, shared),
          turnOf: (id: string) => view.turnNumbers[messageIndex(view.messages, id) ?? -1] ?? 0,
          nearestTerms: (words: readonly string[]) => nearestTerms(view, collected, words, searchOptions),
        };
      },
      {
        concurrency: config.project_concurrency,
        deadline,
        limit,
        signal,
        narrowing: scopeNarrowing(options.finder, sessions, callerSessionId, options.config().projection.min_sessions),
        ...(cutRanking ? { cutRanking } : {}),
      },
    ).finally(() => cache.trim());
  }

  /** Brings the named session's index up to date and returns its builder (tests, bench). */
  async function buildIndex(sessionId: string): Promise<IndexBuilder | undefined> {
    const view = await loadView(sessionId, "");
    const builder = builderOf(sessionId);
    builder.update(view.messages);
    await builder.current();
    return builder;
  }

  async function search(request: SearchRequest): Promise<SearchAnswer> {
    const started = now();
    const config = options.config().search;
    const query = compileQuery(request, regexRunner);
    const limit = request.limit ?? config.message_limit;
    const filters: SearchFilters = { types: new Set(request.types) };
    if (request.role !== undefined) filters.role = request.role;
    if (request.tool !== undefined) filters.tool = request.tool;
    if (request.after !== undefined) filters.after = request.after;
    if (request.before !== undefined) filters.before = request.before;
    if (request.scope !== "session") {
      const sessions = await listScope(request.scope === "global" ? request.callerSessionId : undefined);
      const deadline = readingDeadline(started, config.project_time_budget_ms);
      const outcome = await runSearch(request.callerSessionId, query, filters, limit, sessions, request.signal, deadline);
      if (request.scope === "global") {
        const directories = new Map(sessions.map((session) => [session.id, session.directory]));
        for (const result of outcome.results) result.directory = directories.get(result.sessionId);
      }
      const answer: SearchAnswer = { results: outcome.results, scope: request.scope };
      if (outcome.unsearched > 0) answer.unsearched = outcome.unsearched;
      if (outcome.corrections.size > 0) answer.corrections = outcome.corrections;
      return answer;
    }
    const sessionId = request.sessionId ?? request.callerSessionId;
    // Only its id is used: the info first read (from the store, or the host's API: a lookup on
    // every warm call cost as much as the search); a session since deleted fails in its read.
    const session = await (source.sessionOnce?.(sessionId, request.callerSessionId) ?? source.getSession(sessionId));
    // One session: a larger budget that only guards a runaway regex or a huge cold scan.
    const deadline = readingDeadline(started, Math.max(SESSION_BUDGET_MS, config.project_time_budget_ms));
    const outcome = await runSearch(request.callerSessionId, query, filters, limit, [session], request.signal, deadline);
    const answer: SearchAnswer = { results: outcome.results, scope: "session" };
    if (outcome.unsearched > 0) answer.unsearched = outcome.unsearched;
    if (outcome.corrections.size > 0) answer.corrections = outcome.corrections;
    return answer;
  }

  /** This project's sessions, or with a caller, every session of the store holding it. */
  function listScope(globalCaller: string | undefined): Promise<SessionInfo[]> {
    if (globalCaller === undefined) return source.listSessions();
    if (!source.listEverySession) throw new ArgumentError('scope "global" is not available: this host\'s store cannot be read directly');
    return source.listEverySession(globalCaller);
  }

  async function sessions(request: SessionsRequest): Promise<SessionsAnswer> {
    const started = now();
    const config = options.config();
    const budgetMs = config.search.project_time_budget_ms;
    const callerSessionId = request.callerSessionId ?? "";
    const all = (await listScope(request.global ? callerSessionId : undefined)).filter((s) => request.includeChildren || s.parentId === undefined);
    let chosen: Array<{ session: SessionInfo; snippet?: string }>;
    let unsearched = 0;
    if (request.query !== undefined) {
      const query = compileQuery({ query: request.query }, regexRunner);
      if (query.kind !== "keyword") throw new ArgumentError("query must contain a searchable word");
      const filters: SearchFilters = { types: new Set<HitType>(["text", "tool"]) };
      // The caller's session is ranked by what it said before its live context, as search sees it.
      // Sessions rank by their three best messages and their titles (rank-sessions.ts): the
      // score-bound cut stops on that ranking (rank/session-cut.ts).
      const parsed = query.parsed;
      const outcome = await runSearch(
        callerSessionId,
        query,
        filters,
        3,
        all,
        request.signal,
        readingDeadline(started, budgetMs),
        () => new SessionCutRanking(all, parsed, request.limit),
      );
      unsearched = outcome.unsearched;
      chosen = await rankSessions(all, outcome.candidates, outcome.query.kind === "keyword" ? outcome.query.parsed : query.parsed, request.limit);
    } else {
      chosen = all.slice(0, request.limit).map((session) => ({ session }));
    }
    const summaries: SessionSummary[] = [];
    // The chosen sessions' summaries (mostly read by the search, so in memory) within the call's budget.
    const deadline = started + budgetMs;
    for (const { session, snippet } of chosen) {
      let turns = 0;
      let first = "";
      if (now() <= deadline) {
        try {
          const view = await loadView(session.id, "", request.signal);
          turns = view.turnNumbers[view.turnNumbers.length - 1] ?? 0;
          first = firstUserText(view);
        } catch {
          // listed but unreadable: keep it with what the listing says
          request.signal?.throwIfAborted();
        }
      }
      const summary: SessionSummary = { session, turns, preview: clip(first, config.browse.preview_chars) };
      if (snippet !== undefined) summary.snippet = snippet;
      summaries.push(summary);
    }
    const answer: SessionsAnswer = { sessions: summaries };
    if (request.global) answer.global = true;
    if (unsearched > 0) answer.unsearched = unsearched;
    return answer;
  }

  return {
    cache,
    buildIndex,
    search: (request) => asSearch(() => search(request)),
    sessions: (request) => asSearch(() => sessions(request)),
    close() {
      regexRunner.close();
      for (const key of cache.keys()) cache.delete(key);
    },
  };
}
