// What the projection answers a many-session search (search/types.ts's CandidateFinder), read from
// the published segments: which sessions of a scope it holds as they are now and that hold a
// query term, with per term their documents and chunks (and their chunk tables when asked), which
// it does not hold as they are (read from the store), and the statistics of the rest; per word,
// the nearest terms those sessions hold (typos over sessions not read); a session's summary.

import type { SessionInfo } from "../history/types.ts";
import {
  type ChunkTable,
  type Narrowed,
  type NearestTerm,
  type ProjectedHolder,
  type ProjectedSummary,
  type QueryTerm,
  WordCorrection,
} from "../search/api.ts";
import { decodeChunkTable } from "./chunk-table-blob.ts";
import { decodeChunks } from "./postings-blob.ts";
import type { ProjectionFeed } from "./feed.ts";
import type { ProjectedSession, ProjectionDb } from "./projection-db.ts";
import type { Published } from "./published.ts";

/** Change stamps a search reads in one statement, between turns of the event loop (3,000 took about 10 ms). */
const STAMPS_PER_TURN = 1_000;

const NO_CHUNKS: readonly number[] = Object.freeze([]);

export interface FinderState {
  published: Published;
  db: ProjectionDb;
  feed: ProjectionFeed;
  /** Sessions host events marked changed since their last projection. */
  changed: ReadonlySet<string>;
}

/** The scope split for `terms`; `mustRead`: sessions whose searchable view the projection does not see. */
export async function narrowScope(
  state: FinderState,
  scope: readonly SessionInfo[],
  terms: readonly QueryTerm[],
  mustRead: ReadonlySet<string>,
): Promise<Narrowed> {
  const { published, db } = state;
  const inScope = new Set(scope.map((session) => session.id));
  // Per session of the scope holding a term: per term, its documents, ceiling and where its chunks are.
  const holding = new Map<string, HeldTerms>();
  terms.forEach((term, t) => {
    published.postings(db, term.token, (session, df, ceiling, blob, chunksAt) => {
      if (!inScope.has(session.id)) return;
      let held = holding.get(session.id);
      if (!held) {
        const count = terms.length;
        held = { df: Array(count).fill(0), ceilings: Array(count).fill(0), blobs: Array(count).fill(undefined), chunksAt: Array(count).fill(0) };
        holding.set(session.id, held);
      }
      held.df[t] = df;
      held.ceilings[t] = ceiling;
      held.blobs[t] = blob;
      held.chunksAt[t] = chunksAt;
    });
  });
  const narrowed: Narrowed = { search: [], projected: new Map(), rest: { ids: [], docs: 0, length: 0 } };
  const rows = new Map<string, ProjectedSession>();
  for (const session of scope) {
    const row = publishedAsListed(state, session, mustRead);
    if (row) rows.set(session.id, row);
  }
  const moved = await changedSinceProjected(state, rows);
  for (const session of scope) {
    const row = rows.get(session.id);
    if (!row || moved.has(session.id)) {
      narrowed.search.push(session);
      continue;
    }
    const held = holding.get(session.id);
    if (held) {
      narrowed.projected.set(session.id, holder(db, row, held));
      continue;
    }
    narrowed.rest.ids.push(session.id);
    narrowed.rest.docs += row.docs;
    narrowed.rest.length += row.length;
  }
  return narrowed;
}

/** The session's row when it is published as the listing shows it and nothing says it changed since. */
function publishedAsListed(state: FinderState, session: SessionInfo, mustRead: ReadonlySet<string>): ProjectedSession | undefined {
  const row = state.published.get(session.id);
  return row && row.updated === (session.updated ?? 0) && !state.changed.has(session.id) && !mustRead.has(session.id) ? row : undefined;
}

/**
 * Of sessions published as listed, those changed in the store since they were projected: the one
 * place this is decided. The store names the sessions written since the last complete pass's
 * watermark (a few index lookups: store/watermark.ts); where it cannot say (no pass completed
 * yet, rows deleted, too many written since), each session's change stamp is read instead, a
 * thousand at a time, a turn of the event loop between.
 */
async function changedSinceProjected({ feed, published }: FinderState, rows: ReadonlyMap<string, ProjectedSession>): Promise<Set<string>> {
  const named = published.watermark === undefined ? undefined : await feed.changedSince(published.watermark);
  if (named) return new Set(named.filter((id) => rows.has(id)));
  const ids = [...rows.keys()];
  const moved = new Set<string>();
  for (let at = 0; at < ids.length; at += STAMPS_PER_TURN) {
    if (at > 0) await new Promise((resolve) => setImmediate(resolve));
    const batch = ids.slice(at, at + STAMPS_PER_TURN);
    const stamps = await feed.stamps(batch);
    for (const id of batch) if (stamps.get(id) !== rows.get(id)!.stamp) moved.add(id);
  }
  return moved;
}

/** What a session's postings say of the query's terms: per term its documents, ceiling and the blob and place its chunks are at (none where it holds none). */
interface HeldTerms {
  df: number[];
  ceilings: number[];
  blobs: (Uint8Array | undefined)[];
  chunksAt: number[];
}

function holder(db: ProjectionDb, row: ProjectedSession, held: HeldTerms): ProjectedHolder {
  let table: ChunkTable | undefined;
  let termChunks: (readonly number[])[] | undefined;
  return {
    docs: row.docs,
    length: row.length,
    df: held.df,
    ceilings: held.ceilings,
    termChunks: () => (termChunks ??= held.blobs.map((blob, t) => (blob ? decodeChunks(blob, held.chunksAt[t]!, held.df[t]!) : NO_CHUNKS))),
    table: () => (table ??= readTable(db, row)),
  };
}

/** The chunk table the session's postings were written with (a session projected again since has another). */
function readTable(db: ProjectionDb, row: ProjectedSession): ChunkTable {
  const stored = db.chunkTable(row.id);
  if (stored?.no !== row.no) throw new Error(`projection: session ${row.id} was projected again while it was searched`);
  return decodeChunkTable(stored);
}

/**
 * Per word, into `out`, the terms of the projection's vocabulary that `sessionIds` hold nearest
 * to it (text/typos.ts's measure), each once, with its documents summed over those sessions. Only
 * the nearest distance any of them holds is given: a farther term cannot win over it whatever
 * other sessions hold (typos.ts's isNearer: fewer edits first), so its postings are not read.
 */
export function nearestTerms(
  published: Published,
  db: ProjectionDb,
  words: readonly string[],
  sessionIds: readonly string[],
  out: Map<string, NearestTerm[]>,
): void {
  const wanted = new Set(sessionIds);
  for (const word of words) {
    // One lookup measures each term (it is offered nothing, so its bound stays maxEdits).
    const lookup = new WordCorrection(word);
    if (lookup.minLength === lookup.maxLength) continue;
    const byDistance = new Map<number, string[]>();
    for (const term of published.vocabulary(db, word[0]!, lookup.minLength, lookup.maxLength)) {
      const distance = lookup.editsTo(term);
      if (distance !== undefined) byDistance.get(distance)?.push(term) ?? byDistance.set(distance, [term]);
    }
    const found: NearestTerm[] = [];
    for (const distance of [...byDistance.keys()].sort((a, b) => a - b)) {
      for (const term of byDistance.get(distance)!) {
        let df = 0;
        published.documents(db, term, (session, held) => {
          if (wanted.has(session.id)) df += held;
        });
        if (df > 0) found.push({ term, distance, df });
      }
      if (found.length > 0) break;
    }
    out.set(word, found);
  }
}

/** The session's summary when it is published as the listing shows it and no host event marked it since. */
export function summaryOf(state: Omit<FinderState, "feed">, sessionId: string, updated: number | undefined): ProjectedSummary | undefined {
  const row = state.published.get(sessionId);
  if (!row || row.updated !== (updated ?? 0) || state.changed.has(sessionId)) return undefined;
  const preview = state.db.preview(sessionId);
  return preview === undefined ? undefined : { turns: row.turns, preview };
}
