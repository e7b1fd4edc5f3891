// The search engine the plugin keeps across tool calls: the byte-bounded index cache, the build
// queue, and the two entry points behind history_search and history_sessions.

import type { EngramConfig } from "../config/schema.ts";
import { ArgumentError } from "../history/errors.ts";
import { authoredText } from "../history/preview.ts";
import { clip } from "../history/text.ts";
import type { HistoryMessage, Role, SessionInfo } from "../history/types.ts";
import type { ToolVisibility } from "../history/tool-visibility.ts";
import type { SessionView } from "../history/view.ts";
import type { HistorySource } from "../host/source.ts";
import { BuildQueue, IndexedSession } from "./index/build.ts";
import { ByteLru } from "./index/cache.ts";
import type { HitType } from "./text/documents.ts";
import { literalMatcher, regexMatcher } from "./scan/pattern.ts";
import { RegexRunner } from "./scan/regex-runner.ts";
import { searchProject, type SessionResult } from "./project-search.ts";
import { rankSessions, type RankedSession } from "./rank/rank-sessions.ts";
import { asSearch, maybeYield, now } from "./scheduler.ts";
import { searchSession, type Query, type SearchFilters } from "./session-search.ts";
import { parseQuery } from "./text/tokenize.ts";
import { ViewCache } from "./view-cache.ts";

export const MAX_QUERY_CHARS = 500;
/** Time budget of a one-session search (cold scan or regex) before it answers partial. */
export const SESSION_BUDGET_MS = 20_000;

export interface SearchServiceOptions {
  source: HistorySource;
  config(): EngramConfig;
  visibility(): ToolVisibility;
}

export interface SearchRequest {
  query: string;
  /** Session to search (scope "session"); the caller's own session when omitted. */
  sessionId?: string;
  /** The calling session: its own view hides what the model already has in context. */
  callerSessionId: string;
  scope: "session" | "project";
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

export interface SearchAnswer {
  results: SessionResult[];
  scope: "session" | "project";
  /** Project scope: sessions the time budget left unsearched. */
  unsearched?: number;
}

export interface SessionsRequest {
  query?: string;
  limit: number;
  includeChildren: boolean;
  signal?: AbortSignal;
}

export interface SessionSummary {
  session: SessionInfo;
  turns: number;
  preview: string;
  snippet?: string;
}

export interface SessionsAnswer {
  sessions: SessionSummary[];
  unsearched?: number;
}

export interface SearchService {
  search(request: SearchRequest): Promise<SearchAnswer>;
  sessions(request: SessionsRequest): Promise<SessionsAnswer>;
  /** Cached session indexes (for tests and the bench). */
  readonly cache: ByteLru<IndexedSession>;
  /** Resolves when the named session's index is built and current (tests, bench). */
  indexed(sessionId: string): Promise<IndexedSession | undefined>;
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
  const { source } = options;
  const queue = new BuildQueue();
  const cache = new ByteLru<IndexedSession>(options.config().search.cache_bytes);
  const regexRunner = new RegexRunner();

  let cacheBytes = options.config().search.cache_bytes;
  /** The index cache's bound follows the config (enforced when it changes, not on every lookup). */
  function applyCacheBound(): void {
    const bytes = options.config().search.cache_bytes;
    if (bytes !== cacheBytes) cache.setMaxBytes((cacheBytes = bytes));
  }

  function indexedSession(sessionId: string): IndexedSession {
    const config = options.config();
    applyCacheBound();
    const key = `${sessionId}\u0000${visibilityKey(config)}`;
    let entry = cache.get(key);
    if (!entry) {
      entry = new IndexedSession(options.visibility(), queue);
      cache.set(key, entry);
    }
    return entry;
  }

  const views = new ViewCache();
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

  async function runSearch(request: SearchRequest, query: Query, filters: SearchFilters, limit: number, sessions: SessionInfo[], budgetMs?: number) {
    const config = options.config().search;
    const limits = { limit, maxHits: config.max_hits_per_message, maxSnippets: config.max_snippets_per_hit, snippetChars: config.snippet_chars };
    const visibility = options.visibility();
    return searchProject(
      sessions,
      async (session, deadline) => {
        const view = await viewBefore(session.id, request.callerSessionId, deadline, request.signal);
        if (!view) return { outcome: { results: [], via: "scan", timedOut: true }, turnOf: () => 0 };
        // The read and the view were one synchronous stretch: the search starts a fresh one
        // when that one is spent (a forced turn per session would cost a project search its budget).
        await maybeYield();
        request.signal?.throwIfAborted();
        const indexed = indexedSession(session.id);
        // Snippets for each session's best result now (history_sessions shows it); the rest only
        // for the results the merged answer keeps (searchProject completes them).
        const outcome = await searchSession(view, query, filters, limits, { visibility, indexed, deadline, hitsFor: 1, signal: request.signal });
        return { outcome, turnOf: (id: string) => view.turnNumbers[view.indexById.get(id) ?? -1] ?? 0 };
      },
      { concurrency: config.project_concurrency, budgetMs: budgetMs ?? config.project_time_budget_ms, limit, signal: request.signal },
    ).finally(() => cache.enforce());
  }

  return {
    cache,

    async indexed(sessionId) {
      const view = await loadView(sessionId, "");
      const entry = indexedSession(sessionId);
      entry.update(view.messages);
      await entry.current();
      return entry;
    },

    search(request) {
      return asSearch(() => search(request));
    },

    sessions(request) {
      return asSearch(() => sessions(request));
    },
  };

  async function search(request: SearchRequest): Promise<SearchAnswer> {
    const config = options.config().search;
    const query = compileQuery(request, regexRunner);
    const limit = request.limit ?? config.message_limit;
    const filters: SearchFilters = { types: new Set(request.types) };
    if (request.role !== undefined) filters.role = request.role;
    if (request.tool !== undefined) filters.tool = request.tool;
    if (request.after !== undefined) filters.after = request.after;
    if (request.before !== undefined) filters.before = request.before;
    if (request.scope === "project") {
      const sessions = await source.listSessions();
      const outcome = await runSearch(request, query, filters, limit, sessions);
      const answer: SearchAnswer = { results: outcome.results, scope: "project" };
      if (outcome.unsearched > 0) answer.unsearched = outcome.unsearched;
      return answer;
    }
    const sessionId = request.sessionId ?? request.callerSessionId;
    const session = await source.getSession(sessionId);
    // One session: a larger budget that only guards a runaway regex or a huge cold scan.
    const budget = Math.max(SESSION_BUDGET_MS, config.project_time_budget_ms);
    const outcome = await runSearch(request, query, filters, limit, [session], budget);
    const answer: SearchAnswer = { results: outcome.results, scope: "session" };
    if (outcome.unsearched > 0) answer.unsearched = outcome.unsearched;
    return answer;
  }

  async function sessions(request: SessionsRequest): Promise<SessionsAnswer> {
    const config = options.config();
    const all = (await source.listSessions()).filter((s) => request.includeChildren || s.parentId === undefined);
    let chosen: Array<{ session: SessionInfo; snippet?: string }>;
    let unsearched = 0;
    if (request.query !== undefined) {
      const query = compileQuery({ query: request.query }, regexRunner);
      if (query.kind !== "keyword") throw new ArgumentError("query must contain a searchable word");
      const filters: SearchFilters = { types: new Set<HitType>(["text", "tool"]) };
      const outcome = await runSearch({ query: request.query, callerSessionId: "", scope: "project", types: [], signal: request.signal }, query, filters, 3, all);
      unsearched = outcome.unsearched;
      const ranked: RankedSession[] = rankSessions(all, outcome.perSession, query.parsed);
      chosen = ranked.slice(0, request.limit);
    } else {
      chosen = all.slice(0, request.limit).map((session) => ({ session }));
    }
    const summaries: SessionSummary[] = [];
    const deadline = now() + config.search.project_time_budget_ms;
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
    if (unsearched > 0) answer.unsearched = unsearched;
    return answer;
  }
}
