// The projection's tables in memory, for tests in Node (which has no SQLite driver before 22.5):
// the same contract as projection-db.ts's SQLite file, batch sizes included.

import { POSTING_BATCH, type OpenedProjection, type ProjectedSession, type ProjectionDb, type ProjectionIdentity } from "../projection/projection-db.ts";

function memoryProjectionDb(path = "memory"): ProjectionDb {
  const sessions = new Map<string, ProjectedSession & { complete: boolean }>();
  const postings = new Map<string, Map<string, number>>();
  const bySession = new Map<string, Set<string>>();
  const vocab = new Set<string>();
  const meta = new Map<string, string>();
  return {
    path,
    sessions: () => new Map([...sessions].map(([id, row]) => [id, { ...row }])),
    clearSome(id, updated) {
      sessions.set(id, { id, updated, stamp: "", docs: 0, length: 0, complete: false });
      const terms = bySession.get(id) ?? new Set<string>();
      let removed = 0;
      for (const term of terms) {
        if (removed++ >= POSTING_BATCH) break;
        postings.get(term)?.delete(id);
        terms.delete(term);
      }
      return terms.size === 0;
    },
    addPostings(id, batch) {
      if (batch.length > POSTING_BATCH) throw new Error("batch over POSTING_BATCH");
      if (!sessions.has(id)) return;
      const terms = bySession.get(id) ?? new Set<string>();
      bySession.set(id, terms);
      for (const [term, df] of batch) {
        let holders = postings.get(term);
        if (!holders) postings.set(term, (holders = new Map()));
        holders.set(id, df);
        terms.add(term);
        vocab.add(term);
      }
    },
    complete(session) {
      const row = sessions.get(session.id);
      if (row) sessions.set(session.id, { ...session, complete: true });
    },
    drop(id) {
      sessions.delete(id);
    },
    postings(term) {
      return [...(postings.get(term) ?? [])].map(([id, df]) => ({ id, term, df }));
    },
    vocabulary(first, min, max) {
      return [...vocab].filter((term) => term.startsWith(first) && term.length >= min && term.length <= max).sort();
    },
    meta: (key) => meta.get(key),
    setMeta(key, value) {
      meta.set(key, value);
    },
    close() {},
  };
}

/** An opener for StoreProjection that keeps one in-memory file per path. */
export function memoryOpener(): (path: string, identity: ProjectionIdentity) => Promise<OpenedProjection> {
  const files = new Map<string, ProjectionDb>();
  return async (path) => {
    let db = files.get(path);
    if (!db) files.set(path, (db = memoryProjectionDb(path)));
    return { db };
  };
}
