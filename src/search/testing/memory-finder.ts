// A CandidateFinder held in memory over a MemorySource, each session counted by sessionTerms as
// the projection counts it: the search side of the projection tested without its file.

import type { ToolVisibility } from "../../history/tool-visibility.ts";
import type { SessionInfo } from "../../history/types.ts";
import type { MemorySource } from "../../store/testing/memory-source.ts";
import { termCeiling } from "../collect/projected-ranking.ts";
import { sessionTerms, type SessionTerms } from "../index/session-terms.ts";
import type { QueryTerm } from "../text/query.ts";
import { type NearestTerm, nearestTerms, termListVocabulary } from "../text/typos.ts";
import { type CandidateFinder, type Narrowed, type ProjectedSummary, TERM_CHUNK_STRIDE } from "../types.ts";
import { DEFAULT_TUNING } from "../tuning.ts";

export class MemoryFinder implements CandidateFinder {
  private readonly counted = new Map<string, SessionTerms>();
  /** Chunk tables handed out (table() calls): a search asks only for its holders'. */
  tables = 0;
  /** Sessions whose chunk table is refused, as the projection refuses one projected again since the narrowing. */
  readonly refused = new Set<string>();

  private constructor(private readonly source: MemorySource) {}

  /** Every session of `source` counted as it is now; a session changed later is read by searches until counted again. */
  static async over(source: MemorySource, visibility: ToolVisibility): Promise<MemoryFinder> {
    const finder = new MemoryFinder(source);
    for (const [id, { messages }] of source.sessions) finder.counted.set(id, await sessionTerms(id, messages, visibility, DEFAULT_TUNING, () => undefined));
    return finder;
  }

  /** Forgets a session's counts (as a projection not yet past a change). */
  forget(id: string): void {
    this.counted.delete(id);
  }

  async narrow(scope: readonly SessionInfo[], terms: readonly QueryTerm[], mustRead: ReadonlySet<string>): Promise<Narrowed> {
    const narrowed: Narrowed = { search: [], projected: new Map(), rest: { ids: [], docs: 0, length: 0 } };
    for (const session of scope) {
      const counted = this.counted.get(session.id);
      if (!counted || mustRead.has(session.id)) {
        narrowed.search.push(session);
        continue;
      }
      const termChunks = terms.map((term) => counted.postings.get(term.token) ?? []);
      if (termChunks.every((list) => list.length === 0)) {
        narrowed.rest.ids.push(session.id);
        narrowed.rest.docs += counted.docs;
        narrowed.rest.length += counted.length;
        continue;
      }
      narrowed.projected.set(session.id, {
        docs: counted.docs,
        length: counted.length,
        df: termChunks.map((list) => list.length / TERM_CHUNK_STRIDE),
        ceilings: termChunks.map((list) => termCeiling(list, counted.length / counted.docs, DEFAULT_TUNING)),
        termChunks: () => termChunks,
        table: () => {
          if (this.refused.has(session.id)) throw new Error(`session ${session.id} was projected again`);
          this.tables++;
          return counted.chunks;
        },
      });
    }
    return narrowed;
  }

  async nearest(words: readonly string[], sessionIds: readonly string[]): Promise<Map<string, NearestTerm[]>> {
    const df = new Map<string, number>();
    for (const id of sessionIds) {
      for (const [term, chunks] of this.counted.get(id)?.postings.entries() ?? []) df.set(term, (df.get(term) ?? 0) + chunks.length / TERM_CHUNK_STRIDE);
    }
    const terms = [...df.keys()];
    return nearestTerms(
      termListVocabulary(terms, (key) => df.get(terms[key]!)!),
      words,
    );
  }

  summary(sessionId: string): ProjectedSummary | undefined {
    const counted = this.counted.get(sessionId);
    return counted && this.source.sessions.has(sessionId) ? { turns: counted.turns, preview: counted.preview } : undefined;
  }
}
