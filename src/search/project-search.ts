// Project scope: every session searched with bounded concurrency under one time budget; what is
// not searched when the budget runs out is counted, and the answer says it is partial. Keyword
// results of every session are scored against the statistics of all sessions searched (document
// count, document frequency, average length), so scores compare across sessions.

import type { SessionInfo } from "../history/types.ts";
import { addStats, emptyStats, type CollectionStats } from "./rank/bm25.ts";
import { compareResults, completeHits, type MessageResult } from "./rank/rank.ts";
import { maybeYield, now } from "./scheduler.ts";
import type { CollectedSession } from "./session-search.ts";

export interface SessionResult extends MessageResult {
  sessionId: string;
  turnNumber: number;
  /** Global scope: the directory the session ran in. */
  directory?: string;
}

export interface ProjectSearchOutcome {
  /** Per session, its own results (ranked), for callers that rank sessions. */
  perSession: Map<string, SessionResult[]>;
  /** All results merged, best first, cut to `limit`. */
  results: SessionResult[];
  /** Sessions not searched (budget ran out). */
  unsearched: number;
  /** Typo corrections made (folded query word → the term searched instead), in any session. */
  corrections: Map<string, string>;
}

/** One session's documents, and how to rank them (against the given statistics, if any). */
export interface SessionFound {
  collected: CollectedSession;
  rank(global?: CollectionStats): MessageResult[];
  turnOf(messageId: string): number;
}

export type SearchOne = (session: SessionInfo, deadline: number) => Promise<SessionFound | undefined>;

export async function searchProject(
  sessions: readonly SessionInfo[],
  searchOne: SearchOne,
  options: { concurrency: number; budgetMs: number; limit: number; signal?: AbortSignal },
): Promise<ProjectSearchOutcome> {
  const deadline = now() + options.budgetMs;
  const found: Array<{ session: SessionInfo; found: SessionFound }> = [];
  let next = 0;
  let unsearched = 0;
  const worker = async (): Promise<void> => {
    while (next < sessions.length && !options.signal?.aborted) {
      const session = sessions[next++]!;
      await maybeYield();
      if (now() > deadline) {
        unsearched++;
        continue;
      }
      let one: SessionFound | undefined;
      try {
        one = await searchOne(session, deadline);
      } catch {
        one = undefined; // a session that vanished or failed to load is skipped
      }
      if (!one) continue;
      if (one.collected.timedOut) {
        unsearched++;
        continue;
      }
      found.push({ session, found: one });
    }
  };
  const workers: Promise<void>[] = [];
  for (let i = 0; i < Math.max(1, Math.min(options.concurrency, sessions.length)); i++) workers.push(worker());
  await Promise.all(workers);
  options.signal?.throwIfAborted();
  // One session ranks with its own statistics; several, with their sum.
  let global: CollectionStats | undefined;
  if (found.length > 1) {
    for (const { found: one } of found) {
      const stats = one.collected.stats;
      if (!stats || one.collected.query) continue;
      global ??= emptyStats(stats.df.length);
      addStats(global, stats);
    }
  }
  const perSession = new Map<string, SessionResult[]>();
  const corrections = new Map<string, string>();
  for (const { session, found: one } of found) {
    for (const [word, term] of one.collected.corrections ?? []) if (!corrections.has(word)) corrections.set(word, term);
    if (one.collected.docs.length === 0) continue;
    await maybeYield();
    const results = one.rank(global);
    if (results.length === 0) continue;
    perSession.set(
      session.id,
      results.map((result) => Object.assign(result, { sessionId: session.id, turnNumber: one.turnOf(result.message.id) })),
    );
  }
  const results = [...perSession.values()].flat().sort(compareResults).slice(0, options.limit);
  // Sessions ranked their results with snippets for the first only: finish those returned.
  for (const result of results) completeHits(result);
  return { perSession, results, unsearched, corrections };
}
