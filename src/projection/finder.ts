// What the projection answers a many-session search (search/types.ts's CandidateFinder), read from
// the published segments: which sessions of a scope may hold the query's terms, with per term
// their documents and reach, and the statistics of the rest; and per word, the nearest term each
// session holds (typos over sessions not read).

import type { SessionInfo } from "../history/types.ts";
import { type Narrowed, type NearestTerm, type QueryTerm, WordCorrection } from "../search/api.ts";
import type { ProjectionFeed } from "./feed.ts";
import type { ProjectionDb } from "./projection-db.ts";
import type { Published } from "./published.ts";

/** Change stamps a search reads in one statement, between turns of the event loop (3,000 took about 10 ms). */
const STAMPS_PER_TURN = 1_000;

export interface FinderState {
  published: Published;
  db: ProjectionDb;
  feed: ProjectionFeed;
  /** Sessions host events marked changed since their last projection. */
  changed: ReadonlySet<string>;
}

/** The scope split for `terms`; `mustRead`: sessions whose searchable view the projection does not see. */
export async function narrowScope(
  { published, db, feed, changed }: FinderState,
  scope: readonly SessionInfo[],
  terms: readonly QueryTerm[],
  mustRead: ReadonlySet<string>,
): Promise<Narrowed> {
  // Per session holding a term: per term, its documents and reach.
  const holding = new Map<string, { df: number[]; reach: number[] }>();
  terms.forEach((term, t) => {
    published.postings(db, term.token, (session, df, reach) => {
      let held = holding.get(session.id);
      if (!held) holding.set(session.id, (held = { df: terms.map(() => 0), reach: terms.map(() => 0) }));
      held.df[t] = df;
      held.reach[t] = reach;
    });
  });
  const narrowed: Narrowed = { search: [], projected: new Map(), rest: { ids: [], docs: 0, length: 0 } };
  const listed = (session: SessionInfo) => {
    const row = published.get(session.id);
    return row && row.updated === (session.updated ?? 0) && !changed.has(session.id) && !mustRead.has(session.id) ? row : undefined;
  };
  // A session left unread, or skipped by the search's score bound, must be as projected: its
  // stamp now (two index lookups) says so, whoever wrote the store since the last pass. Read
  // a thousand at a time, a turn of the event loop between.
  const toCheck = scope.filter((session) => listed(session)).map((session) => session.id);
  const stamps = new Map<string, string>();
  for (let at = 0; at < toCheck.length; at += STAMPS_PER_TURN) {
    if (at > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const [id, stamp] of await feed.stamps(toCheck.slice(at, at + STAMPS_PER_TURN))) stamps.set(id, stamp);
  }
  for (const session of scope) {
    const row = listed(session);
    if (!row) {
      narrowed.search.push(session);
      continue;
    }
    const fresh = stamps.get(session.id) === row.stamp;
    const held = holding.get(session.id);
    if (!fresh || held) {
      narrowed.search.push(session);
      if (fresh && held) narrowed.projected.set(session.id, { docs: row.docs, length: row.length, ...held });
      continue;
    }
    narrowed.rest.ids.push(session.id);
    narrowed.rest.docs += row.docs;
    narrowed.rest.length += row.length;
  }
  return narrowed;
}

/** Per word, into `out`, the nearest term each of `sessionIds` holds, chosen as that session's own search chooses it. */
export function nearestBySession(
  published: Published,
  db: ProjectionDb,
  words: readonly string[],
  sessionIds: readonly string[],
  out: Map<string, NearestTerm[]>,
): void {
  const wanted = new Set(sessionIds);
  for (const word of words) {
    // One lookup measures each term (it is offered nothing, so its bound stays maxEdits);
    // each session then keeps its own nearest term, as its own search would.
    const lookup = new WordCorrection(word);
    if (lookup.minLength === lookup.maxLength) continue;
    const bySession = new Map<string, WordCorrection>();
    for (const term of published.vocabulary(db, word[0]!, lookup.minLength, lookup.maxLength)) {
      const distance = lookup.editsTo(term);
      if (distance === undefined) continue;
      published.postings(db, term, (session, df) => {
        if (!wanted.has(session.id)) return;
        let own = bySession.get(session.id);
        if (!own) bySession.set(session.id, (own = new WordCorrection(word)));
        own.offer(term, distance, df);
      });
    }
    out.set(
      word,
      [...bySession.values()].flatMap((own) => own.nearest ?? []),
    );
  }
}
