// The search service the plugin keeps across tool calls: the index cache, the session views, the
// regex worker, and the two verbs (verbs.ts) behind history_search and history_sessions. Every
// search, of one session or many, runs through the stages verbs.ts names, with a RequestSearcher.

import type { EngramConfig } from "../config/schema.ts";
import type { ToolVisibility } from "../history/tool-visibility.ts";
import type { HistorySource } from "../history/source.ts";
import type { ViewCache } from "../history/view-cache.ts";
import type { BoundedMap } from "../util/bounded-map.ts";
import { IndexCache } from "./collect/index-cache.ts";
import type { IndexBuilder } from "./index/build.ts";
import { rankPhrasings } from "./merge.ts";
import { phrasingTerms } from "./parse.ts";
import { scopeNarrowing } from "./scope.ts";
import { RegexRunner } from "./scan/regex-runner.ts";
import { RequestSearcher, SessionViews } from "./collect/request-searcher.ts";
import type { CandidateFinder, SearchService } from "./types.ts";
import { DEFAULT_TUNING, type SearchTuning } from "./tuning.ts";
import { asSearch } from "../util/scheduler.ts";
import { type VerbBackend, searchVerb, sessionsVerb } from "./verbs.ts";

export { MAX_ALTERNATIVES, MAX_OFFSET, MAX_QUERY_CHARS } from "./parse.ts";

export interface SearchServiceOptions {
  source: HistorySource;
  config(): EngramConfig;
  visibility(): ToolVisibility;
  /** Session views, shared with the browse tools (a new cache when absent). */
  views?: ViewCache;
  /** The store's projection: many-session keyword searches read only the sessions it names. */
  finder?: CandidateFinder;
  /** What every search cuts, counts and ranks with (tuning.ts): DEFAULT_TUNING unless a test or the eval tries another. */
  tuning?: SearchTuning;
}

/**
 * The service with what tests and the bench look into; not part of search's entry (api.ts): the
 * plugin and the command line hold a SearchService.
 */
export interface InspectableSearchService extends SearchService {
  /** Cached session indexes, each with its builder. */
  readonly cache: BoundedMap<string, IndexBuilder>;
  /** Builds the named session's index (resolves when it is current) and returns its builder. */
  buildIndex(sessionId: string): Promise<IndexBuilder | undefined>;
}

export function createSearchService(options: SearchServiceOptions): SearchService {
  return createInspectableSearchService(options);
}

/** The search service, with its index cache open to tests and the bench (InspectableSearchService). */
export function createInspectableSearchService(options: SearchServiceOptions): InspectableSearchService {
  const { source, config } = options;
  const tuning = options.tuning ?? DEFAULT_TUNING;
  const indexes = new IndexCache(config, options.visibility, tuning);
  const views = new SessionViews(source, options.views);
  const regexRunner = new RegexRunner();

  const backend: VerbBackend = {
    source,
    config,
    regexRunner,
    tuning,
    loadView: (sessionId, callerSessionId, signal) => views.load(sessionId, callerSessionId, signal),
    projectedSummary: (session) => (config().projection.enable ? options.finder?.summary(session.id, session.updated) : undefined),
    run({ callerSessionId, queries, filters, sessions, limit, deadline, signal }) {
      const search = config().search;
      // A session searched alone asks its index for the messages that can reach the depth ranked.
      const limits = { limit, maxHits: search.max_hits_per_message, maxSnippets: search.max_snippets_per_hit, snippetChars: search.snippet_chars };
      const terms = queries.length > 1 ? phrasingTerms(queries) : undefined;
      const searcher = new RequestSearcher({
        views,
        indexes,
        visibility: options.visibility(),
        tuning,
        callerSessionId,
        filters,
        limits,
        alone: sessions.length === 1,
        ...(signal ? { signal } : {}),
        ...(terms ? { phrasingTerms: terms } : {}),
      });
      return rankPhrasings(sessions, queries, searcher, {
        concurrency: search.project_concurrency,
        deadline,
        limit,
        tuning,
        signal,
        narrowing: scopeNarrowing(options.finder, sessions, callerSessionId, config().projection.min_sessions, terms),
      }).finally(() => indexes.trim());
    },
  };

  /** Brings the named session's index up to date and returns its builder (tests, bench). */
  async function buildIndex(sessionId: string): Promise<IndexBuilder | undefined> {
    const view = await views.load(sessionId, "");
    const builder = indexes.builderOf(sessionId);
    builder.update(view.messages);
    await builder.current();
    return builder;
  }

  return {
    cache: indexes.builders,
    buildIndex,
    search: (request) => asSearch(() => searchVerb(backend, request)),
    sessions: (request) => asSearch(() => sessionsVerb(backend, request)),
    close() {
      regexRunner.close();
      indexes.clear();
    },
  };
}
