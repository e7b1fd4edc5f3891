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
  maxEdits,
  nearestTerms,
  termListVocabulary,
} from "../search/projection-contract.ts";
import { decodeChunkTable } from "./chunk-table-blob.ts";
import { decodeChunks } from "./postings-blob.ts";
import type { ProjectionFeed } from "./feed.ts";
import type { ProjectedSession, ProjectionDb } from "./projection-db.ts";
import type { Published } from "./published.ts";
import { termPostings } from "./segments.ts";

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

/**
 * The scope split for `terms`; `mustRead`: sessions whose searchable view the projection does not
 * see. Keyed by the numbers postings carry: on 10,000 sessions a common word has thousands of
 * holders, and a search pays per holder only a lookup by number and one small object. What
 * changed in the store is asked first; the published rows and their postings are then read with
 * no turn of the event loop between, so they are of one moment (a pass may publish meanwhile).
 */
export async function narrowScope(
  state: FinderState,
  scope: readonly SessionInfo[],
  terms: readonly QueryTerm[],
  mustRead: ReadonlySet<string>,
): Promise<Narrowed> {
  const { published, db, feed } = state;
  const named = published.watermark === undefined ? undefined : await feed.changedSince(published.watermark);
  let listing = listedAsProjected(state, scope, mustRead, new Set(named));
  if (!named) listing = listedAsProjected(state, scope, mustRead, await stampsMoved(feed, listing.listed));
  const { listed, search } = listing;
  const held = new Map<number, HeldTerms>();
  terms.forEach((term, t) => {
    termPostings(db, published.segments, term.token, (no, df, ceiling, blob, chunksAt) => {
      const row = listed.get(no);
      if (!row) return;
      let one = held.get(no);
      if (!one) held.set(no, (one = new HeldTerms(db, row, terms.length)));
      one.df[t] = df;
      one.ceilings[t] = ceiling;
      one.blobs[t] = blob;
      one.chunksAt[t] = chunksAt;
    });
  });
  const narrowed: Narrowed = { search, projected: new Map(), rest: { ids: [], docs: 0, length: 0 } };
  for (const [no, row] of listed) {
    const one = held.get(no);
    if (one) {
      narrowed.projected.set(row.id, one);
      continue;
    }
    narrowed.rest.ids.push(row.id);
    narrowed.rest.docs += row.docs;
    narrowed.rest.length += row.length;
  }
  return narrowed;
}

/**
 * The scope's sessions published as listed and not `moved`, by number; the others, in scope order,
 * to be read from the store. Published as listed: its row's `updated` is the listing's and no host
 * event or caller marked it since.
 */
function listedAsProjected(
  { published, changed }: FinderState,
  scope: readonly SessionInfo[],
  mustRead: ReadonlySet<string>,
  moved: ReadonlySet<string>,
): { listed: Map<number, ProjectedSession>; search: SessionInfo[] } {
  const listed = new Map<number, ProjectedSession>();
  const search: SessionInfo[] = [];
  for (const session of scope) {
    const row = published.get(session.id);
    if (row && row.updated === (session.updated ?? 0) && !changed.has(session.id) && !mustRead.has(session.id) && !moved.has(session.id)) {
      listed.set(row.no, row);
    } else search.push(session);
  }
  return { listed, search };
}

/**
 * Where the store cannot name the sessions written since the last complete pass's watermark
 * (store/watermark.ts: no pass completed yet, rows deleted, too many written since), those of
 * `listed` whose change stamp moved since they were projected: read a thousand at a time, a turn
 * of the event loop between.
 */
async function stampsMoved(feed: ProjectionFeed, listed: ReadonlyMap<number, ProjectedSession>): Promise<Set<string>> {
  const rows = [...listed.values()];
  const moved = new Set<string>();
  for (let at = 0; at < rows.length; at += STAMPS_PER_TURN) {
    if (at > 0) await new Promise((resolve) => setImmediate(resolve));
    const batch = rows.slice(at, at + STAMPS_PER_TURN);
    const stamps = await feed.stamps(batch.map((row) => row.id));
    for (const row of batch) if (stamps.get(row.id) !== row.stamp) moved.add(row.id);
  }
  return moved;
}

/**
 * A holder as its postings give it: per query term its documents, ceiling, and the blob and place
 * its chunks are at (none where it holds none); its chunks and chunk table read when first asked.
 */
class HeldTerms implements ProjectedHolder {
  readonly docs: number;
  readonly length: number;
  readonly df: number[];
  readonly ceilings: number[];
  readonly blobs: (Uint8Array | undefined)[];
  readonly chunksAt: number[];
  private chunks: (readonly number[])[] | undefined;
  private chunkTable: ChunkTable | undefined;

  constructor(
    private readonly db: ProjectionDb,
    private readonly row: ProjectedSession,
    terms: number,
  ) {
    this.docs = row.docs;
    this.length = row.length;
    this.df = [];
    this.ceilings = [];
    this.blobs = [];
    this.chunksAt = [];
    // Pushed, not `new Array(n).fill(0)`: five times faster in Bun for thousands of holders.
    for (let t = 0; t < terms; t++) {
      this.df.push(0);
      this.ceilings.push(0);
      this.blobs.push(undefined);
      this.chunksAt.push(0);
    }
  }

  termChunks(): ReadonlyArray<readonly number[]> {
    return (this.chunks ??= this.blobs.map((blob, t) => (blob ? decodeChunks(blob, this.chunksAt[t]!, this.df[t]!) : NO_CHUNKS)));
  }

  table(): ChunkTable {
    return (this.chunkTable ??= readTable(this.db, this.row));
  }
}

/** The chunk table the session's postings were written with (a session projected again since has another). */
function readTable(db: ProjectionDb, row: ProjectedSession): ChunkTable {
  const stored = db.chunkTable(row.id);
  if (stored?.no !== row.no) throw new Error(`projection: session ${row.id} was projected again while it was searched`);
  return decodeChunkTable(stored);
}

/**
 * Per word, the terms of the projection's vocabulary that `sessionIds` hold nearest to it
 * (text/typos.ts's nearestTerms), with their documents summed over those sessions: only the terms
 * at the nearest distance have their postings read.
 */
export function projectedNearestTerms(
  published: Published,
  db: ProjectionDb,
  words: readonly string[],
  sessionIds: readonly string[],
): Map<string, NearestTerm[]> {
  const wanted = new Set(sessionIds);
  const terms = new Set<string>();
  for (const word of words) {
    const max = maxEdits(word.length);
    if (max > 0) for (const term of published.vocabulary(db, word[0]!, word.length - max, word.length + max)) terms.add(term);
  }
  const listed = [...terms];
  const documents = (key: number): number => {
    let df = 0;
    published.documents(db, listed[key]!, (session, held) => {
      if (wanted.has(session.id)) df += held;
    });
    return df;
  };
  return nearestTerms(termListVocabulary(listed, documents), words);
}

/** The session's summary when it is published as the listing shows it and no host event marked it since. */
export function summaryOf(state: Omit<FinderState, "feed">, sessionId: string, updated: number | undefined): ProjectedSummary | undefined {
  const row = state.published.get(sessionId);
  if (!row || row.updated !== (updated ?? 0) || state.changed.has(sessionId)) return undefined;
  const preview = state.db.preview(sessionId);
  return preview === undefined ? undefined : { turns: row.turns, preview };
}
