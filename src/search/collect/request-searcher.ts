// How the engine reads and searches one session of a request: its view (the caller's own hides
// its live context), its documents through the session's index or a scan, and their ranking.
// Every search (collect.ts, merge.ts) drives one SessionSearcher per request.

import type { HistoryMessage } from "../../history/types.ts";
import type { ToolVisibility } from "../../history/tool-visibility.ts";
import type { SessionView } from "../../history/view.ts";
import type { HistorySource } from "../../history/source.ts";
import { ViewCache } from "../../history/view-cache.ts";
import type { IndexCache } from "./index-cache.ts";
import type { ProjectedRanking, SessionFound, SessionSearcher } from "./collect.ts";
import { holderStats, projectedGroups, resolveGroup } from "./projected-ranking.ts";
import type { Query } from "../parse.ts";
import type { CollectionStats } from "../rank/bm25.ts";
import type { Candidates } from "../rank/candidates.ts";
import {
  attributeFilter,
  collectSession,
  keywordCandidates,
  type ResultLimits,
  sessionCandidates,
  sessionNearestTerms,
  type SharedScan,
} from "./search-one-session.ts";
import type { ProjectedHolder, SearchFilters } from "../types.ts";
import type { SessionInfo } from "../../history/types.ts";
import type { NearestTerm } from "../text/typos.ts";
import type { QueryTerm } from "../text/query.ts";
import type { SearchTuning } from "../tuning.ts";
import { maybeYield, now } from "../../util/scheduler.ts";

/** Sessions' views as a search sees them, shared with the browse tools. */
export class SessionViews {
  /**
   * Other sessions' views by the very list they were made from: a source never changes a list it
   * returned, so an unchanged session (most of a project search) costs one lookup, and the view
   * goes when the source drops the list.
   */
  private readonly byList = new WeakMap<readonly HistoryMessage[], SessionView>();

  constructor(
    private readonly source: HistorySource,
    private readonly views: ViewCache = new ViewCache(),
  ) {}

  /** `keep` false: a session the source does not keep yet is read without being kept (LoadOptions). */
  async load(sessionId: string, callerSessionId: string, signal?: AbortSignal, keep = true): Promise<SessionView> {
    const messages = await this.source.loadMessages(sessionId, { ...(signal ? { signal } : {}), ...(keep ? {} : { keep }) });
    if (sessionId === callerSessionId) return this.views.view(sessionId, messages, true);
    let view = this.byList.get(messages);
    if (view?.sessionId !== sessionId) this.byList.set(messages, (view = this.views.view(sessionId, messages, false)));
    return view;
  }

  /** One message of another session as the store holds it (read alone where the source can). */
  async message(sessionId: string, messageId: string, signal?: AbortSignal): Promise<HistoryMessage | undefined> {
    const options = signal ? { signal } : {};
    if (this.source.loadMessage) return this.source.loadMessage(sessionId, messageId, options);
    return (await this.source.loadMessages(sessionId, options)).find((message) => message.id === messageId);
  }

  /**
   * The view, or undefined when the deadline passes first: the read goes on (and, kept, fills
   * the cache for the next call), but this answer does not wait for it.
   */
  async before(sessionId: string, callerSessionId: string, deadline: number, signal?: AbortSignal, keep = true): Promise<SessionView | undefined> {
    const loading = this.load(sessionId, callerSessionId, signal, keep);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - now()))));
    loading.catch(() => {}); // a read that fails after the deadline has no one to tell
    try {
      return await Promise.race([loading, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** What one request's sessions are searched with. */
export interface SearcherSetup {
  views: SessionViews;
  indexes: IndexCache;
  visibility: ToolVisibility;
  /** What every session is cut, counted and ranked with (tuning.ts). */
  tuning: SearchTuning;
  callerSessionId: string;
  filters: SearchFilters;
  limits: ResultLimits;
  /** The request searches one session: it gets an index and waits for its first build. */
  alone: boolean;
  signal?: AbortSignal;
  /**
   * A request with alternatives: the terms of all its keyword phrasings. Each session is then read
   * once for all of them, and scanned once for these terms (SharedScan).
   */
  phrasingTerms?: QueryTerm[];
}

/**
 * With alternatives, how many sessions' views and scans the phrasings share at most; past them a
 * phrasing reads and scans a session again. They are held to the request's end, so this bounds
 * what a search with alternatives keeps beyond one without (its size: search-notes.md,
 * "Alternatives: several phrasings fused").
 */
const MAX_SHARED_SESSIONS = 256;

export class RequestSearcher implements SessionSearcher {
  /** With alternatives: each session's view and scan, shared by the phrasings' searches. */
  private readonly shared = new Map<string, { view: Promise<SessionView | undefined>; scan: SharedScan }>();
  /** With alternatives: the messages of projected sessions read one by one, by session and id (phrasings rank many of the same). */
  private readonly messages = new Map<string, Promise<HistoryMessage | undefined>>();

  constructor(private readonly setup: SearcherSetup) {}

  async read(session: SessionInfo, deadline: number, query: Query, corrected: boolean, first?: SessionFound): Promise<SessionFound> {
    const { views, indexes, visibility, tuning, callerSessionId, filters, limits, alone, signal } = this.setup;
    // One of many sessions is kept only if it is the caller's own: the others are seldom read
    // again, and a global search read enough of them to fill the cache (the projection ranks
    // them once built; search-notes.md, "Memory").
    const keep = alone || session.id === callerSessionId;
    const terms = this.setup.phrasingTerms;
    let shared = terms ? this.shared.get(session.id) : undefined;
    // A phrasing after the first scans beside the build the first one's scan started, as a search
    // again with corrections does.
    const again = shared !== undefined;
    if (terms && !shared && this.shared.size < MAX_SHARED_SESSIONS) {
      shared = { view: views.before(session.id, callerSessionId, deadline, signal, keep), scan: { terms } };
      this.shared.set(session.id, shared);
    }
    const view = await (shared?.view ?? views.before(session.id, callerSessionId, deadline, signal, keep));
    if (!view) return { collected: { docs: [], via: "scan", timedOut: true }, query, options: { visibility, tuning } };
    // The read and the view were one synchronous stretch: the search starts a fresh one
    // when that one is spent (a forced turn per session would cost a project search its budget).
    await maybeYield();
    signal?.throwIfAborted();
    // A session searched alone gets an index: it is likely searched again. One of many is
    // scanned (through the index it has, if any), and no first build is started for it: a
    // global search read thousands of sessions once each and queued as many builds, which
    // then took the host's thread between searches, and the memory the cache allows, for
    // indexes hardly any later search used (docs/search-notes.md, "Index builds in many-session searches").
    const builder = alone ? indexes.builderOf(session.id) : indexes.existing(session.id);
    // A search again with typos corrected scans as the first pass did: waiting for the build
    // its scan started would give the first search of a session the build's time.
    const waitForBuild = alone && !corrected && !again;
    // Alone, the index gives the messages that can reach the request's depth; with others (scores
    // rescored against their shared statistics), every matching one.
    const depth = alone ? limits.limit : undefined;
    const options = {
      visibility,
      tuning,
      builder,
      deadline,
      signal,
      waitForBuild,
      turnPerPhase: alone,
      depth,
      first: first?.collected,
      sharedScan: shared?.scan,
    };
    const collected = await collectSession(view, query, filters, options);
    return { collected, view, query, options };
  }

  candidates(found: SessionFound, shared?: CollectionStats): Candidates {
    return sessionCandidates(found.collected, found.query, this.setup.limits, found.options, shared);
  }

  async nearestTerms(found: SessionFound, words: readonly string[]): Promise<Map<string, NearestTerm[]> | undefined> {
    return found.view ? sessionNearestTerms(found.view, found.collected, words, found.options) : undefined;
  }

  projected(sessionId: string, holder: ProjectedHolder, query: Query & { kind: "keyword" }, shared: CollectionStats): ProjectedRanking {
    const { views, visibility, filters, limits, signal } = this.setup;
    const { groups, turns } = projectedGroups(
      sessionId,
      holder.table(),
      holder.termChunks(),
      query.parsed,
      holderStats(holder),
      shared,
      attributeFilter(filters),
    );
    const read = (messageId: string) => views.message(sessionId, messageId, signal);
    const load = this.setup.phrasingTerms
      ? (messageId: string) => {
          const key = `${sessionId}\u0000${messageId}`;
          let message = this.messages.get(key);
          if (!message) this.messages.set(key, (message = read(messageId)));
          return message;
        }
      : read;
    const candidates = keywordCandidates(groups, query.parsed, limits, visibility, (group) => resolveGroup(group, load));
    return { candidates, turnOf: (messageId) => turns.get(messageId) ?? 0 };
  }
}
