// Project scope: every session searched with bounded concurrency under one time budget; what is
// not searched when the budget runs out is counted, and the answer says it is partial.

import type { SessionInfo } from "../history/types.ts";
import { compareResults, completeHits, type MessageResult } from "./rank/rank.ts";
import { maybeYield, now } from "./scheduler.ts";
import type { SessionSearchResult } from "./session-search.ts";

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
}

export type SearchOne = (session: SessionInfo, deadline: number) => Promise<{ outcome: SessionSearchResult; turnOf(messageId: string): number } | undefined>;

export async function searchProject(
  sessions: readonly SessionInfo[],
  searchOne: SearchOne,
  options: { concurrency: number; budgetMs: number; limit: number; signal?: AbortSignal },
): Promise<ProjectSearchOutcome> {
  const deadline = now() + options.budgetMs;
  const perSession = new Map<string, SessionResult[]>();
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
      let found: Awaited<ReturnType<SearchOne>>;
      try {
        found = await searchOne(session, deadline);
      } catch {
        found = undefined; // a session that vanished or failed to load is skipped
      }
      if (!found) continue;
      if (found.outcome.timedOut) {
        unsearched++;
        continue;
      }
      if (found.outcome.results.length === 0) continue;
      perSession.set(
        session.id,
        found.outcome.results.map((result) => Object.assign(result, { sessionId: session.id, turnNumber: found.turnOf(result.message.id) })),
      );
    }
  };
  const workers: Promise<void>[] = [];
  for (let i = 0; i < Math.max(1, Math.min(options.concurrency, sessions.length)); i++) workers.push(worker());
  await Promise.all(workers);
  options.signal?.throwIfAborted();
  const results = [...perSession.values()].flat().sort(compareResults).slice(0, options.limit);
  // Sessions ranked their results with snippets for the first only: finish those returned.
  for (const result of results) completeHits(result);
  return { perSession, results, unsearched };
}
