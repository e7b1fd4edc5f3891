// history_sessions with a query: sessions ranked by how well their content (and title) match,
// each with its best snippet.

import type { SessionInfo } from "../../history/types.ts";
import { BinaryHeap } from "../../util/binary-heap.ts";
import { fold } from "../text/normalize.ts";
import { maybeYield } from "../../util/scheduler.ts";
import { type RankedCandidates, topAcross } from "./candidates.ts";
import { beatenBy } from "./rank.ts";
import { insertBest } from "../../util/best.ts";
import type { Group } from "./rank.ts";
import { countTerm, type ParsedQuery } from "../text/query.ts";
import type { SearchTuning } from "../tuning.ts";

export interface RankedSession {
  session: SessionInfo;
  score: number;
  /**
   * Its best message's first snippet, undefined when that message is gone from the store since it
   * was ranked. Made when asked: only the sessions of the page shown are read for it (with
   * alternatives, each phrasing ranks its own sessions).
   */
  snippet(): Promise<string | undefined>;
}

/** A session's score from its content (its best messages' weighted scores), its title's coverage, and the scope's best message score. */
function sessionScore(content: number, title: number, bestContent: number, tuning: SearchTuning): number {
  const { titleRaise, titleShare } = tuning.sessions;
  return content * (1 + titleRaise * title) + title * titleShare * (bestContent || 1);
}

/** Share of the query's words found in the title (0..1). */
export function titleCoverage(title: string, parsed: ParsedQuery): number {
  if (parsed.groups === 0) return 0;
  const folded = fold(title);
  const groups = new Set<number>();
  for (const term of parsed.terms) if (countTerm(title, folded, term) > 0) groups.add(term.group);
  return groups.size / parsed.groups;
}

interface Entry {
  session: SessionInfo;
  /** Place in the listing: equal scores and times keep it. */
  order: number;
  title: number;
  candidates: RankedCandidates | undefined;
  /** The highest score the session can reach (what its candidates can reach), until it is ranked. */
  score: number;
  best?: Group;
}

/** Higher score first, then the more recently updated, then listing order. */
function compareEntries(a: Entry, b: Entry): number {
  return b.score - a.score || (b.session.updated ?? 0) - (a.session.updated ?? 0) || a.order - b.order;
}

/** The highest content score a session can reach now (rank/candidates.ts's reach of its three best). */
function contentReach(candidates: RankedCandidates | undefined, tuning: SearchTuning): number {
  let reach = 0;
  if (candidates)
    tuning.sessions.contentWeights.forEach((weight, i) => {
      reach += weight * candidates.reach(i);
    });
  return reach;
}

/**
 * The `limit` sessions whose content (their three best messages) and title match the query best,
 * each with its best snippet. The session with the highest reachable score is looked at next: its
 * next candidate boosted (which lowers what it can reach) until its three best are known, then
 * ranked; until no session left can place (rank/candidates.ts).
 */
export async function rankSessions(
  sessions: readonly SessionInfo[],
  candidates: ReadonlyMap<string, RankedCandidates>,
  parsed: ParsedQuery,
  limit: number,
): Promise<RankedSession[]> {
  const { tuning } = parsed;
  const { contentWeights } = tuning.sessions;
  const bestContent = (await topAcross(candidates, 1))[0]?.group.score ?? 0;
  const scored = (entry: Entry, content: number) => sessionScore(content, entry.title, bestContent, tuning);
  // compareEntries is a total order (listing order breaks every tie): the heap's first is the one a scan would pick.
  const pending = new BinaryHeap<Entry>(compareEntries);
  sessions.forEach((session, order) => {
    const title = titleCoverage(session.title, parsed);
    const found = candidates.get(session.id);
    if (!found && title === 0) return;
    const entry: Entry = { session, order, title, candidates: found, score: 0 };
    entry.score = scored(entry, contentReach(found, tuning));
    pending.push(entry);
  });
  const ranked: Entry[] = [];
  for (let entry = pending.pop(); entry; entry = pending.pop()) {
    if (ranked.length >= limit && beatenBy(entry.score, ranked[limit - 1]!.score)) break;
    const found = entry.candidates;
    if (found && !found.settled(contentWeights.length)) {
      await found.next();
      entry.score = scored(entry, contentReach(found, tuning));
      pending.push(entry);
    } else {
      const top = (await found?.top(contentWeights.length)) ?? [];
      let content = 0;
      top.forEach((group, i) => {
        content += group.score * contentWeights[i]!;
      });
      if (content === 0 && entry.title === 0) continue;
      entry.score = scored(entry, content);
      if (top[0]) entry.best = top[0];
      insertBest(ranked, entry, limit, compareEntries);
    }
    await maybeYield();
  }
  return ranked.map(({ session, score, candidates, best }) => ({
    session,
    score,
    snippet: async () => (best && candidates && (await candidates.ready(best)) ? candidates.result(best).hits[0]?.snippets[0] : undefined),
  }));
}
