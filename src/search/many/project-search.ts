// Project scope: every session searched with bounded concurrency under one time budget; what is
// not searched when the budget runs out is counted, and the answer says it is partial. Keyword
// results of every session are scored with the document count and frequencies of all sessions
// searched (their lengths against their own session's average: rank/rescore.ts), so scores compare
// across sessions. A keyword query's
// words found in no session searched are corrected once over the scope (text/typos.ts) and every
// session searched again with the corrected query. With a projection of the store (a
// ScopeNarrowing), only the sessions that may hold a term are read; the rest add their documents
// and length to the statistics, and their nearest terms to the typo pass.

import type { SessionInfo } from "../../history/types.ts";
import { messageIndex, type SessionView } from "../../history/view.ts";
import type { Narrowed, ScopeNarrowing, SessionResult } from "../types.ts";
import { addStats, emptyStats, type CollectionStats } from "../rank/bm25.ts";
import { type Candidates, topAcross } from "../rank/candidates.ts";
import { maybeYield, now } from "../../util/scheduler.ts";
import type { CollectedSession, Query, SessionSearchOptions } from "../session-search.ts";
import { typoCorrections, unmatchedWords, type NearestTerm } from "../text/typos.ts";
import { type CutRanking, MessageCutRanking, ScoreCut } from "./score-cut.ts";
import { TUNING } from "../tuning.ts";

export interface ProjectSearchOutcome {
  /** Per session with matches, its candidate messages (ranked on demand), for callers that rank sessions. */
  candidates: Map<string, Candidates>;
  /** All results merged, best first, cut to `limit`. */
  results: SessionResult[];
  /** Sessions not searched (budget ran out). */
  unsearched: number;
  /** Typo corrections made (folded query word → the term searched instead). */
  corrections: Map<string, string>;
  /** The query the results answer (the corrected one when corrections were made). */
  query: Query;
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

/** How a many-session search reads and ranks one session (search/session-searcher.ts). */
export interface SessionSearcher {
  /**
   * The session's documents. `corrected`: the search again with typos corrected, part of the same
   * request; `first`: what the first pass found in this session, if it was searched.
   */
  read(session: SessionInfo, deadline: number, query: Query, corrected: boolean, first?: SessionFound): Promise<SessionFound>;
  /** Its candidate messages, scored against the shared statistics (every session searched) if given. */
  candidates(found: SessionFound, shared?: CollectionStats): Candidates;
  /** The term of its documents nearest to each word (typos); undefined past the deadline. */
  nearestTerms(found: SessionFound, words: readonly string[]): Promise<Map<string, NearestTerm> | undefined>;
}

export async function searchProject(
  sessions: readonly SessionInfo[],
  query: Query,
  searcher: SessionSearcher,
  options: {
    concurrency: number;
    /** When reading stops (`now()`'s clock): sessions not read by then are counted unsearched. */
    deadline: number;
    limit: number;
    signal?: AbortSignal;
    narrowing?: ScopeNarrowing;
    /** What the score-bound cut (score-cut.ts) ranks, fresh for each pass: by default the best `limit` messages. */
    cutRanking?: () => CutRanking;
  },
): Promise<ProjectSearchOutcome> {
  const deadline = options.deadline;
  let unsearched = 0;
  const narrowing = options.narrowing;
  const narrow = async (query: Query): Promise<Narrowed | undefined> =>
    narrowing && query.kind === "keyword" ? narrowing.narrow(query.parsed.terms) : undefined;
  let narrowed = await narrow(query);
  /** Sessions the score-bound cut left unread in the last pass: counted as searched (none can enter the answer). */
  let skipped: SessionInfo[] = [];
  /** Sessions the projection describes that the last pass counted unsearched (out of time): their statistics are the projection's. */
  let outOfTime: SessionInfo[] = [];
  const searchAll = async (
    query: Query,
    corrected: boolean,
    firsts?: ReadonlyMap<string, SessionFound>,
  ): Promise<Array<{ session: SessionInfo; found: SessionFound }>> => {
    const found: Array<{ session: SessionInfo; found: SessionFound }> = [];
    const scoped = narrowed?.search ?? sessions;
    unsearched = 0;
    skipped = [];
    outOfTime = [];
    const scans = new ScanKeeper(corrected ? undefined : query);
    const projected = narrowed?.projected;
    let cut: ScoreCut | undefined;
    const unsearchedOne = (session: SessionInfo) => {
      unsearched++;
      if (projected?.has(session.id)) outOfTime.push(session);
    };
    /** Reads `list` from its start until done or until `stops` says the next session need not be read; returns where reading stopped. */
    const read = async (list: readonly SessionInfo[], stops?: (i: number) => boolean): Promise<number> => {
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < list.length && !options.signal?.aborted) {
          if (stops?.(next)) return;
          const session = list[next++]!;
          await maybeYield();
          if (now() > deadline) {
            unsearchedOne(session);
            continue;
          }
          let one: SessionFound | undefined;
          try {
            one = await searcher.read(session, deadline, query, corrected, firsts?.get(session.id));
          } catch {
            one = undefined; // a session that vanished or failed to load is skipped
          }
          const described = cut && projected?.get(session.id);
          if (described) cut!.check(one?.collected, described);
          if (!one) continue;
          if (one.collected.timedOut) {
            unsearchedOne(session);
            continue;
          }
          found.push({ session, found: one });
          if (cut) addToCut(cut, session, one);
          scans.add(one.collected);
        }
      };
      const workers: Promise<void>[] = [];
      for (let i = 0; i < Math.max(1, Math.min(options.concurrency, list.length)); i++) workers.push(worker());
      await Promise.all(workers);
      options.signal?.throwIfAborted();
      return next;
    };
    // Every session read is given to the cut (its ranking may wait for those in flight); the
    // cut's candidates are boosted as far as its ranking needs: the answer ranks fresh ones.
    const addToCut = (into: ScoreCut, session: SessionInfo, one: SessionFound) => into.add(session, searcher.candidates(one, into.shared));
    const cutting = !corrected && query.kind === "keyword" && TUNING.project.sharedIdf && projected && projected.size > 0;
    if (!cutting) {
      await read(scoped);
      return found;
    }
    // The sessions the projection does not describe as they are (the caller's own, one changed
    // since its pass) first, as read: their statistics, with the projection's of the others,
    // are then the scope's, as a full scan would sum them.
    await read(scoped.filter((session) => !projected.has(session.id)));
    const described = scoped.filter((session) => projected.has(session.id));
    const cutShared = sharedStats(found, [...described.map((session) => projected.get(session.id)!), narrowed!.rest]);
    const ranking = options.cutRanking?.() ?? new MessageCutRanking(options.limit);
    const bounded = cutShared && ScoreCut.over(query.parsed, ranking, cutShared);
    if (!bounded) {
      await read(described);
      return found;
    }
    for (const { session, found: one } of found) addToCut(bounded, session, one);
    cut = bounded;
    const ordered = bounded.order(described, projected);
    const stopped = await read(
      ordered.map(({ session }) => session),
      (i) => bounded.excludes(i),
    );
    skipped = ordered.slice(stopped).map(({ session }) => session);
    return found;
  };
  let found = await searchAll(query, false);
  const unread = narrowed && narrowing ? { ids: narrowed.rest.ids, nearest: narrowing.nearest } : undefined;
  const sessionsSearched: Array<{
    df: number[] | undefined;
    nearest: ((words: readonly string[]) => Promise<Map<string, NearestTerm> | undefined>) | undefined;
  }> = found.map(({ found: one }) => ({ df: one.collected.stats?.df, nearest: (words) => searcher.nearestTerms(one, words) }));
  // Sessions the cut skipped hold what the projection says: their words are found (no nearest needed then).
  for (const session of skipped) sessionsSearched.push({ df: narrowed!.projected.get(session.id)!.df, nearest: undefined });
  const typos = query.kind === "keyword" ? await typoCorrections(query, { sessions: sessionsSearched, unread }, deadline) : undefined;
  const corrections = typos?.corrections ?? new Map<string, string>();
  // Past the budget, the answer without corrections beats a second pass that searches nothing.
  if (typos && now() <= deadline) {
    query = { kind: "keyword", ...typos.query };
    const firsts = new Map(found.map((one) => [one.session.id, one.found]));
    // The corrections' terms may be held by sessions the first narrowing left out.
    if (narrowed) narrowed = await narrow(query);
    found = await searchAll(query, true, firsts);
  }
  // One session ranks with its own statistics; several, with their sum (the sessions left
  // unread hold no query term: documents and length only; those the cut skipped and those out
  // of time, as projected: the sum a full scan makes, and the one the cut's bounds were made with).
  const shared = rankingStats(found, narrowed, [...skipped, ...outOfTime]);
  const candidates = new Map<string, Candidates>();
  const views = new Map<string, SessionView | undefined>();
  for (const { session, found: one } of found) {
    if (one.collected.docs.length === 0) continue;
    await maybeYield();
    candidates.set(session.id, searcher.candidates(one, shared));
    views.set(session.id, one.view);
  }
  // Only the candidates that can reach the merged first `limit` are boosted, and only those
  // returned get hits and snippets.
  const results = (await topAcross(candidates, options.limit)).map(({ key, group }): SessionResult => {
    const result = candidates.get(key)!.result(group);
    return Object.assign(result, { sessionId: key, turnNumber: turnNumberOf(views.get(key), result.message.id) });
  });
  return { candidates, results, unsearched, corrections, query };
}

/** The turn of a session's message (0 when the session was not read in time). */
function turnNumberOf(view: SessionView | undefined, messageId: string): number {
  return view ? (view.turnNumbers[messageIndex(view.messages, messageId) ?? -1] ?? 0) : 0;
}

/** The statistics every session is scored with: the sum over the sessions read and `others`. */
function sharedStats(
  found: ReadonlyArray<{ found: SessionFound }>,
  others: ReadonlyArray<{ docs: number; length: number; df?: number[] }>,
): CollectionStats | undefined {
  let shared: CollectionStats | undefined;
  for (const { found: one } of found) {
    const stats = one.collected.stats;
    if (!stats) continue;
    shared ??= emptyStats(stats.df.length);
    addStats(shared, stats);
  }
  for (const other of others) {
    shared ??= emptyStats(other.df?.length ?? 0);
    addStats(shared, { docs: other.docs, length: other.length, df: other.df ?? [] });
  }
  return shared;
}

/** The statistics the results rank with: none for one session alone (its own), or with sharedIdf off. */
function rankingStats(
  found: ReadonlyArray<{ found: SessionFound }>,
  narrowed: Narrowed | undefined,
  asProjected: readonly SessionInfo[],
): CollectionStats | undefined {
  const rest = narrowed?.rest;
  if (found.length + asProjected.length + (rest?.ids.length ?? 0) <= 1 || !TUNING.project.sharedIdf) return undefined;
  if (!found.some(({ found: one }) => one.collected.stats) && asProjected.length === 0) return undefined;
  const others = asProjected.map((session) => narrowed!.projected.get(session.id)!);
  return sharedStats(found, rest ? [...others, rest] : others);
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
