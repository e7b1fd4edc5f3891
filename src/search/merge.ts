// Stage 4 of a search, merge: what collect.ts found ranked as one list across sessions. Every
// session's candidates are scored with the document count and frequencies of all sessions in
// scope (their lengths against their own session's average: rank/rescore.ts), so scores compare;
// the sessions the projection holds as they are and that hold a query term are ranked from it
// (collect/projected-ranking.ts), each bounded before its chunks are decoded. Only the candidates that
// can reach the merged first `limit` are boosted (and, ranked from the projection, read). A
// request with alternatives collects and merges each phrasing in turn; answer.ts fuses them.

import type { SessionInfo } from "../history/types.ts";
import { messageIndex, type SessionView } from "../history/view.ts";
import { maybeYield } from "../util/scheduler.ts";
import { type Collected, type CollectOptions, collectScope, type SessionSearcher } from "./collect/collect.ts";
import { holderBounds, holderCeiling, holderStats, ProjectedCandidates } from "./collect/projected-ranking.ts";
import { addStats, emptyStats, type CollectionStats } from "./rank/bm25.ts";
import { Candidates, type RankedCandidates, topAcross } from "./rank/candidates.ts";
import type { Group } from "./rank/rank.ts";
import { chunkScorers, termFactors } from "./rank/rescore.ts";
import type { Query } from "./parse.ts";
import type { SearchTuning } from "./tuning.ts";
import type { Narrowed, SessionResult } from "./types.ts";

/** A phrasing's ranking across the scope. */
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

/**
 * Each phrasing's ranking to `options.limit`, in phrasing order: collected (collect.ts) and merged
 * in turn under the request's one deadline. With several, no `results` are made (answer.ts makes
 * the page's from the fused ranking), and the searcher shares its reads across them
 * (request-searcher.ts's phrasingTerms).
 */
export async function rankPhrasings(
  sessions: readonly SessionInfo[],
  queries: readonly Query[],
  searcher: SessionSearcher,
  options: CollectOptions & { limit: number; tuning: SearchTuning },
): Promise<SessionsSearchOutcome[]> {
  const outcomes: SessionsSearchOutcome[] = [];
  for (const query of queries) {
    const collected = await collectScope(sessions, query, searcher, options);
    outcomes.push(
      await mergeScope(sessions, collected, searcher, {
        deadline: options.deadline,
        limit: options.limit,
        rankOnly: queries.length > 1,
        tuning: options.tuning,
      }),
    );
  }
  return outcomes;
}

/** One phrasing's collected sessions ranked as one list to `limit`. */
async function mergeScope(
  sessions: readonly SessionInfo[],
  { query, found, narrowed, corrections, unsearched }: Collected,
  searcher: SessionSearcher,
  options: { deadline: number; limit: number; rankOnly: boolean; tuning: SearchTuning },
): Promise<SessionsSearchOutcome> {
  const deadline = options.deadline;
  // One session ranks with its own statistics; several, with their sum over the scope (the
  // projection's for the sessions it holds as they are: the sum reading every session makes).
  const shared = rankingStats(found, narrowed, options.tuning);
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
          () => holderBounds(holder, keyword.parsed, scorers ?? chunkScorers(keyword.parsed, stats), options.tuning.sessions.contentWeights.length),
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
function rankingStats(found: Collected["found"], narrowed: Narrowed | undefined, tuning: SearchTuning): CollectionStats | undefined {
  const holders = narrowed ? [...narrowed.projected.values()] : [];
  const rest = narrowed?.rest;
  if (found.length + holders.length + (rest?.ids.length ?? 0) <= 1 || !tuning.project.sharedIdf) return undefined;
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
