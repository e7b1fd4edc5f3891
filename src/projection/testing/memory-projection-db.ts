// The projection's tables in memory, for tests in Node (which has no SQLite driver before 22.5):
// the same contract as projection-db.ts's SQLite file. Each open is a connection of its own over
// one file per path: a transaction writes a copy the others see only once it commits, a second
// writer is refused as busy, and a connection learns of another's commits (changedElsewhere).

import type { OpenedProjection, ProjectedSession, ProjectionDb, ProjectionIdentity, SegmentRow, SessionDetail } from "../projection-db.ts";

interface Tables {
  sessions: Map<string, ProjectedSession>;
  details: Map<string, SessionDetail & { no: number }>;
  segments: Map<number, number>;
  postings: Map<number, Map<string, Uint8Array>>;
  meta: Map<string, string>;
}

interface MemoryFile {
  tables: Tables;
  version: number;
  writer?: object;
}

function copy(tables: Tables): Tables {
  return {
    sessions: new Map(tables.sessions),
    details: new Map(tables.details),
    segments: new Map(tables.segments),
    postings: new Map([...tables.postings].map(([no, terms]) => [no, new Map(terms)])),
    meta: new Map(tables.meta),
  };
}

function connection(file: MemoryFile, path: string): ProjectionDb {
  const self = {};
  let working: Tables | undefined;
  let seen = file.version;
  const tables = () => working ?? file.tables;
  const write = (): Tables => {
    if (!working) throw new Error("memory projection: write outside a transaction");
    return working;
  };
  const sortedTerms = (segment: number) => [...(tables().postings.get(segment)?.keys() ?? [])].sort();
  return {
    path,
    begin() {
      if (file.writer) throw new Error("database is locked");
      file.writer = self;
      working = copy(file.tables);
    },
    commit() {
      file.tables = write();
      file.version++;
      seen = file.version;
      working = undefined;
      file.writer = undefined;
    },
    rollback() {
      working = undefined;
      file.writer = undefined;
    },
    snapshot: (read) => read(),
    changedElsewhere() {
      const changed = seen !== file.version;
      seen = file.version;
      return changed;
    },
    sessionsAfter(no) {
      const all = [...tables().sessions.values()];
      return { sessions: all.filter((session) => session.no > no).map((session) => ({ ...session })), total: all.length };
    },
    putSession(session) {
      write().sessions.set(session.id, { ...session });
    },
    dropSession(id) {
      write().sessions.delete(id);
      write().details.delete(id);
    },
    putDetail(id, no, detail) {
      // As the file keeps it: a copy of the bytes.
      write().details.set(id, { no, preview: detail.preview, data: detail.data.slice(), ids: detail.ids });
    },
    chunkTable(id) {
      const detail = tables().details.get(id);
      return detail && { no: detail.no, data: detail.data, ids: detail.ids };
    },
    preview: (id) => tables().details.get(id)?.preview,
    segments: () => [...tables().segments].sort(([a], [b]) => a - b).map(([no, postings]): SegmentRow => ({ no, postings })),
    putSegment(segment) {
      write().segments.set(segment.no, segment.postings);
    },
    dropSegment(no) {
      write().segments.delete(no);
    },
    writeTerm(segment, term, data) {
      const all = write().postings;
      let terms = all.get(segment);
      if (!terms) all.set(segment, (terms = new Map()));
      terms.set(term, data);
    },
    termData: (segment, term) => tables().postings.get(segment)?.get(term),
    termsAfter(segment, after, limit) {
      const terms = tables().postings.get(segment);
      return sortedTerms(segment)
        .filter((term) => after === undefined || term > after)
        .slice(0, limit)
        .map((term) => ({ term, data: terms!.get(term)! }));
    },
    clearSome(segment, limit) {
      const terms = write().postings.get(segment);
      for (const term of sortedTerms(segment).slice(0, limit)) terms?.delete(term);
      if (terms?.size === 0) write().postings.delete(segment);
      return !write().postings.has(segment);
    },
    vocabulary: (segment, first, min, max) => sortedTerms(segment).filter((term) => term.startsWith(first) && term.length >= min && term.length <= max),
    meta: (key) => tables().meta.get(key),
    setMeta(key, value) {
      // Outside a transaction a write commits at once, as a statement of its own does.
      if (working) working.meta.set(key, value);
      else {
        file.tables = copy(file.tables);
        file.tables.meta.set(key, value);
        file.version++;
        seen = file.version;
      }
    },
    close() {
      if (file.writer === self) file.writer = undefined;
      working = undefined;
    },
  };
}

/** An opener for ProjectionBuilder that keeps one in-memory file per path, a new connection each open. */
export function memoryOpener(): (path: string, identity: ProjectionIdentity) => Promise<OpenedProjection> {
  const files = new Map<string, MemoryFile>();
  return async (path) => {
    let file = files.get(path);
    if (!file)
      files.set(
        path,
        (file = { tables: copy({ sessions: new Map(), details: new Map(), segments: new Map(), postings: new Map(), meta: new Map() }), version: 0 }),
      );
    return { db: connection(file, path) };
  };
}
