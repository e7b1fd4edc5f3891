// Stage 3 of a search, collect: the sessions of the scope read whole (scope.ts's readWhole) are
// read and searched with bounded concurrency until the reading deadline, each through its index
// or a scan (request-searcher.ts); what the deadline leaves out is counted unsearched. A keyword
// query's words found in no session are then corrected once over the whole scope (text/typos.ts:
// the sessions read, and the projection's vocabulary for those it holds), and the scope collected
// again with the corrected query.

import type { SessionInfo } from "../../history/types.ts";
import type { SessionView } from "../../history/view.ts";
import { maybeYield, now } from "../../util/scheduler.ts";
import type { CollectionStats } from "../rank/bm25.ts";
import type { Candidates } from "../rank/candidates.ts";
import { readWhole } from "../scope.ts";
import type { Query } from "../parse.ts";
import type { CollectedSession, SessionSearchOptions } from "./search-one-session.ts";
import { typoCorrections, unmatchedWords, type NearestTerm } from "../text/typos.ts";
import type { Narrowed, ProjectedHolder, ScopeNarrowing } from "../types.ts";

/** One session as searched: its documents, and what ranking them again needs. */
export interface SessionFound {
  collected: CollectedSession;
  /** The session as searched (its turn numbers place the results); absent when its read ran out of time. */
  view?: SessionView;
  /** The query and options it was searched with (its candidates and nearest terms use them again). */
  query: Query;
  options: SessionSearchOptions;
}

/** How a request reads and ranks one session (request-searcher.ts). */
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

/** What collecting a scope gave, for merge.ts. */
export interface Collected {
  /** The query searched last: the corrected one when corrections were made. */
  query: Query;
  /** The sessions read and searched, in the order their searches ended. */
  found: Array<{ session: SessionInfo; found: SessionFound }>;
  /** The projection's answer for `query` (undefined without one). */
  narrowed: Narrowed | undefined;
  /** Typo corrections made (folded query word → the term searched instead). */
  corrections: Map<string, string>;
  /** Sessions not searched (the deadline passed first). */
  unsearched: number;
}

export interface CollectOptions {
  concurrency: number;
  /** When reading stops (`now()`'s clock): sessions not read by then are counted unsearched. */
  deadline: number;
  signal?: AbortSignal | undefined;
  narrowing?: ScopeNarrowing | undefined;
}

export async function collectScope(sessions: readonly SessionInfo[], query: Query, searcher: SessionSearcher, options: CollectOptions): Promise<Collected> {
  const { deadline, narrowing } = options;
  let unsearched = 0;
  const narrow = async (query: Query): Promise<Narrowed | undefined> =>
    narrowing && query.kind === "keyword" ? narrowing.narrow(query.parsed.terms) : undefined;
  let narrowed = await narrow(query);
  const readAll = async (query: Query, corrected: boolean, firsts?: ReadonlyMap<string, SessionFound>): Promise<Collected["found"]> => {
    const found: Collected["found"] = [];
    const list = readWhole(sessions, narrowed);
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
  let found = await readAll(query, false);
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
    found = await readAll(query, true, firsts);
  }
  return { query, found, narrowed, corrections, unsearched };
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
