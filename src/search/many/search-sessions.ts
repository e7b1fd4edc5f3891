// Every search, of one session or many: its sessions searched with bounded concurrency under one
// time budget; what is not searched when the budget runs out is counted, and the answer says it
// is partial. Keyword results of every session are scored with the document count and frequencies of all sessions
// in scope (their lengths against their own session's average: rank/rescore.ts), so scores
// compare across sessions. A keyword query's words found in no session are corrected once over
// the scope (text/typos.ts) and the scope searched again with the corrected query. With a
// projection of the store (a ScopeNarrowing), the sessions it holds as they are are never read
// whole: those holding a query term are ranked from it (projected-ranking.ts) and only the
// messages that can place are read; the others add their documents and length to the statistics.
// The sessions it does not hold as they are (the caller's own, one changed since) are read.

import type { SessionInfo } from "../../history/types.ts";
import { messageIndex, type SessionView } from "../../history/view.ts";
import type { Narrowed, ProjectedHolder, ScopeNarrowing, SessionResult } from "../types.ts";
import { addStats, emptyStats, type CollectionStats } from "../rank/bm25.ts";
import { chunkScorers, termFactors } from "../rank/rescore.ts";
import { Candidates, type RankedCandidates, topAcross } from "../rank/candidates.ts";
import { holderBounds, holderCeiling, holderStats, ProjectedCandidates } from "./projected-ranking.ts";
import { maybeYield, now } from "../../util/scheduler.ts";
import type { CollectedSession, Query, SessionSearchOptions } from "../search-one-session.ts";
import { typoCorrections, unmatchedWords, type NearestTerm } from "../text/typos.ts";
import { TUNING } from "../tuning.ts";
import type { Group } from "../rank/rank.ts";

export interface SessionsSearchOutcome {
  /** Per session with matches, its candidate messages (ranked on demand), for callers that rank sessions. */
  candidates: Map<string, RankedCandidates>;
  /** All results merged, best first, cut to `limit`. */
  results: SessionResult[];
  /** Sessions not searched (budget ran out). */
  unsearched: number;
  /** Typo corrections made (folded query word → the term searched instead). */
  corrections: Map<string, string>;
  /** The query the results answer (the corrected one when corrections were made). */
  query: Query;
  /** The ranking to `limit`, best first: each message's session and group (`results` are made of its first ones). */
  ranked: Array<{ key: string; group: Group }>;
  /** A message of `ranked` as a result, with its hits and snippets. */
  resultOf(entry: { key: string; group: Group }): SessionResult;
}

/** One session as searched: its documents, and what ranking them again needs. */
export interface SessionFound {
  collected: CollectedSession;
  /** The session as searched (its turn numbers place the results); absent when its read ran out of time. */
  view?: SessionView;
  /** The query and options it was searched with (its candidates and nearest terms use them again). */
  query: Query;
  options: SessionSearchOptions;
}

/** How a many-session search reads and ranks one session (search/request-searcher.ts). */
export interface SessionSearcher {
  /**
   * The session's documents. `corrected`: the search again with typos corrected, part of the same
   * request; `first`: what the first pass found in this session, if it was searched.
   */
  read(session: SessionInfo, deadline: number, query: Query, corrected: boolean, first?: SessionFound): Promise<SessionFound>;
  /** Its candidate messages, scored against the shared statistics (every session searched) if given. */
  candidates(found: SessionFound, shared?: CollectionStats): Candidates;
  /** The term of its documents nearest to each word (typos); undefined past the deadline. */
  nearestTerms(found: SessionFound, words: readonly string[]): Promise<Map<string, NearestTerm[]> | undefined>;
  /**
   * A session the projection holds as it is: its candidates ranked from the projection against
   * `shared`, each message read only when it can place; and each candidate's turn number.
   */
  projected(sessionId: string, holder: ProjectedHolder, query: Query & { kind: "keyword" }, shared: CollectionStats): ProjectedRanking;
}

export interface ProjectedRanking {
  candidates: Candidates;
  turnOf(messageId: string): number;
}

export async function searchSessions(
  sessions: readonly SessionInfo[],
  query: Query,
  searcher: SessionSearcher,
  options: {
    concurrency: number;
    /** When reading stops (`now()`'s clock): sessions not read by then are counted unsearched. */
    deadline: number;
    limit: number;
    /** Make no `results` (a phrasing of several, whose fused ranking makes the page's). */
    rankOnly?: boolean;
    signal?: AbortSignal;
    narrowing?: ScopeNarrowing;
  },
): Promise<SessionsSearchOutcome> {
  const deadline = options.deadline;
  let unsearched = 0;
  const narrowing = options.narrowing;
  const narrow = async (query: Query): Promise<Narrowed | undefined> =>
    narrowing && query.kind === "keyword" ? narrowing.narrow(query.parsed.terms) : undefined;
  let narrowed = await narrow(query);
  /** Reads the sessions the projection does not hold as they are (all of them without one). */
  const searchAll = async (
    query: Query,
    corrected: boolean,
    firsts?: ReadonlyMap<string, SessionFound>,
  ): Promise<Array<{ session: SessionInfo; found: SessionFound }>> => {
    const found: Array<{ session: SessionInfo; found: SessionFound }> = [];
    const list = narrowed?.search ?? sessions;
    unsearched = 0;
    const scans = new ScanKeeper(corrected ? undefined : query);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < list.length && !options.signal?.aborted) {
        const session = list[next++]!;
        await maybeYield();
        if (now() > deadline) {
          unsearched++;
          continue;
        }
        let one: SessionFound | undefined;
        try {
          one = await searcher.read(session, deadline, query, corrected, firsts?.get(session.id));
        } catch {
          continue; // a session that vanished or failed to load is skipped
        }
        if (one.collected.timedOut) {
          unsearched++;
          continue;
        }
        found.push({ session, found: one });
        scans.add(one.collected);
      }
    };
    const workers: Promise<void>[] = [];
    for (let i = 0; i < Math.max(1, Math.min(options.concurrency, list.length)); i++) workers.push(worker());
    await Promise.all(workers);
    options.signal?.throwIfAborted();
    return found;
  };
  let found = await searchAll(query, false);
  // The projected holders' words are found; a word found nowhere is looked up in the projection's
  // vocabulary over every session it holds.
  const df = [...found.map(({ found: one }) => one.collected.stats?.df), ...[...(narrowed?.projected.values() ?? [])].map((holder) => holder.df)];
  const nearest = found.map(
    ({ found: one }) =>
      (words: readonly string[]) =>
        searcher.nearestTerms(one, words),
  );
  const unread = narrowed && narrowing ? [...narrowed.projected.keys(), ...narrowed.rest.ids] : [];
  if (unread.length > 0) nearest.push((words) => narrowing!.nearest(words, unread));
  const typos = query.kind === "keyword" ? await typoCorrections(query, { df, nearest }, deadline) : undefined;
  const corrections = typos?.corrections ?? new Map<string, string>();
  // Past the budget, the answer without corrections beats a second pass that searches nothing.
  if (typos && now() <= deadline) {
    query = { kind: "keyword", ...typos.query };
    const firsts = new Map(found.map((one) => [one.session.id, one.found]));
    // The corrections' terms may be held by sessions the first narrowing left out.
    if (narrowed) narrowed = await narrow(query);
    found = await searchAll(query, true, firsts);
  }
  // One session ranks with its own statistics; several, with their sum over the scope (the
  // projection's for the sessions it holds as they are: the sum reading every session makes).
  const shared = rankingStats(found, narrowed);
  const candidates = new Map<string, RankedCandidates>();
  const turnOf = new Map<string, (messageId: string) => number>();
  for (const { session, found: one } of found) {
    if (one.collected.docs.length === 0) continue;
    await maybeYield();
    candidates.set(session.id, searcher.candidates(one, shared));
    const view = one.view;
    turnOf.set(session.id, (messageId) => turnNumberOf(view, messageId));
  }
  if (narrowed && query.kind === "keyword" && narrowed.projected.size > 0) {
    const keyword = query;
    const scorers = shared && chunkScorers(keyword.parsed, shared);
    const factors = shared && termFactors(keyword.parsed, shared);
    for (const [id, holder] of narrowed.projected) {
      // Thousands of holders on a large store: the host's thread gets its turns between them.
      await maybeYield();
      const own = holderStats(holder);
      const stats = shared ?? own;
      // Ranked from its chunk table once one of its messages can place; a table refused (the
      // session projected again since the narrowing) has the session read as it is now.
      const make = async (): Promise<RankedCandidates> => {
        try {
          const ranked = searcher.projected(id, holder, keyword, stats);
          turnOf.set(id, ranked.turnOf);
          return ranked.candidates;
        } catch {
          const session = sessions.find((one) => one.id === id);
          const one = session && (await searcher.read(session, deadline, keyword, false).catch(() => undefined));
          if (!one || one.collected.timedOut) return Candidates.none();
          turnOf.set(id, (messageId) => turnNumberOf(one.view, messageId));
          return searcher.candidates(one, stats);
        }
      };
      candidates.set(
        id,
        new ProjectedCandidates(
          holderCeiling(holder, keyword.parsed, (factors ?? termFactors(keyword.parsed, stats))(own)),
          () => holderBounds(holder, keyword.parsed, scorers ?? chunkScorers(keyword.parsed, stats), TUNING.sessions.contentWeights.length),
          make,
        ),
      );
    }
  }
  // Only the candidates that can reach the merged first `limit` are boosted (and, ranked from the
  // projection, read), and only those returned get hits and snippets.
  const ranked = await topAcross(candidates, options.limit);
  const resultOf = ({ key, group }: { key: string; group: Group }): SessionResult => {
    const result = candidates.get(key)!.result(group);
    return Object.assign(result, { sessionId: key, turnNumber: turnOf.get(key)!(result.message.id) });
  };
  ranked.length = Math.min(ranked.length, options.limit);
  const results = options.rankOnly ? [] : ranked.map(resultOf);
  return { candidates, results, unsearched, corrections, query, ranked, resultOf };
}

/** The turn of a session's message (0 when the session was not read in time). */
function turnNumberOf(view: SessionView | undefined, messageId: string): number {
  return view ? (view.turnNumbers[messageIndex(view.messages, messageId) ?? -1] ?? 0) : 0;
}

/**
 * The statistics the results rank with: the sum over the sessions read and those the projection
 * holds as they are (holders and the rest); none for one session alone (its own), or with
 * sharedIdf off.
 */
function rankingStats(found: ReadonlyArray<{ found: SessionFound }>, narrowed: Narrowed | undefined): CollectionStats | undefined {
  const holders = narrowed ? [...narrowed.projected.values()] : [];
  const rest = narrowed?.rest;
  if (found.length + holders.length + (rest?.ids.length ?? 0) <= 1 || !TUNING.project.sharedIdf) return undefined;
  let shared: CollectionStats | undefined;
  for (const { found: one } of found) {
    const stats = one.collected.stats;
    if (!stats) continue;
    shared ??= emptyStats(stats.df.length);
    addStats(shared, stats);
  }
  for (const holder of holders) {
    shared ??= emptyStats(holder.df.length);
    addStats(shared, { docs: holder.docs, length: holder.length, df: holder.df });
  }
  if (shared && rest) addStats(shared, { docs: rest.docs, length: rest.length, df: [] });
  return shared;
}

/**
 * Keeps the sessions' scan counts (CollectedSession.scan) only while the typo pass may need them:
 * it and the search again it leads to run only for a word found in no session searched, so once
 * each word has been found in some session the counts kept are dropped and no more are kept.
 * Their rendered parts are most of what a cold project search holds; kept to the end, they
 * outlived the young generation's collections and were copied into the old one.
 */
class ScanKeeper {
  private readonly kept: CollectedSession[] = [];
  /** Per query term, its document frequency over the sessions searched so far. */
  private df: number[] | undefined;

  /** `query`: a first pass's (a search again with corrections makes no further correction). */
  constructor(private readonly query: Query | undefined) {
    if (query?.kind === "keyword") this.df = query.parsed.terms.map(() => 0);
  }

  add(collected: CollectedSession): void {
    const df = this.df;
    const stats = collected.stats;
    if (df && stats && this.query?.kind === "keyword") {
      stats.df.forEach((count, t) => {
        df[t]! += count;
      });
      if (unmatchedWords(this.query.parsed, df).length > 0) {
        this.kept.push(collected);
        return;
      }
      this.df = undefined;
      for (const earlier of this.kept) delete earlier.scan;
      this.kept.length = 0;
    }
    delete collected.scan;
  }
}
