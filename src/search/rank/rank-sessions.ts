// history_sessions with a query: sessions ranked by how well their content (and title) match,
// each with its best snippet.

import type { SessionInfo } from "../../history/types.ts";
import { fold } from "../text/normalize.ts";
import type { SessionResult } from "../project-search.ts";
import { countTerm, FUNCTION_WORD_GROUP, type ParsedQuery } from "../text/query.ts";

export interface RankedSession {
  session: SessionInfo;
  score: number;
  snippet?: string;
}

/** Share of the query's words found in the title (0..1). */
export function titleCoverage(title: string, parsed: ParsedQuery): number {
  if (parsed.groups === 0) return 0;
  const folded = fold(title);
  const groups = new Set<number>();
  for (const term of parsed.terms) if (term.group !== FUNCTION_WORD_GROUP && countTerm(title, folded, term) > 0) groups.add(term.group);
  return groups.size / parsed.groups;
}

export function rankSessions(
  sessions: readonly SessionInfo[],
  perSession: Map<string, SessionResult[]>,
  parsed: ParsedQuery,
): RankedSession[] {
  const ranked: RankedSession[] = [];
  let bestContent = 0;
  for (const results of perSession.values()) bestContent = Math.max(bestContent, results[0]?.score ?? 0);
  for (const session of sessions) {
    const results = perSession.get(session.id) ?? [];
    let content = 0;
    results.slice(0, 3).forEach((result, i) => (content += result.score * [1, 0.3, 0.15][i]!));
    const title = titleCoverage(session.title, parsed);
    if (content === 0 && title === 0) continue;
    const score = content * (1 + 0.5 * title) + title * 0.25 * (bestContent || 1);
    const entry: RankedSession = { session, score };
    const snippet = results[0]?.hits[0]?.snippets[0];
    if (snippet !== undefined) entry.snippet = snippet;
    ranked.push(entry);
  }
  ranked.sort((a, b) => b.score - a.score || (b.session.updated ?? 0) - (a.session.updated ?? 0));
  return ranked;
}
