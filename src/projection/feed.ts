// What the projection reads of a store, over either OpenCode generation's reader: every session,
// each one's change stamp, the store's watermark, and its messages, read straight from the reader
// (not through the message cache, which a pass over thousands of sessions would empty of the
// sessions in use).

import type { HistoryMessage, SessionInfo } from "../history/types.ts";
import { decodeMessages, decodeSessions, type HistoryReader, type HostDecode, type ReadOptions, type SessionStamp } from "../store/reader.ts";
import type { Store } from "../store/store-file.ts";

export interface ProjectionFeed {
  /** The store file, opened with the probe session if need be; undefined when the reader reads none (SDK only). */
  storePath(probeSessionId: string): Promise<string | undefined>;
  /** Every session of every project in the store. */
  sessions(probeSessionId: string): Promise<SessionInfo[]>;
  /** The session's change stamp as text; undefined when the reader cannot tell (no projection then). */
  stamp(sessionId: string): Promise<string | undefined>;
  /** Many sessions' stamps as `stamp` gives them, in one read where the reader can (a session the store lacks is absent). */
  stamps(sessionIds: readonly string[]): Promise<Map<string, string>>;
  messages(sessionId: string, options: ReadOptions): Promise<HistoryMessage[]>;
  /**
   * The store's watermark (store/watermark.ts): equal marks mean no history was written between
   * them; undefined when the reader has none (no SQLite store, or not open yet).
   */
  watermark(): Promise<string | undefined>;
  /** The sessions written since `mark`; undefined when the reader cannot say: compare their stamps then. */
  changedSince(mark: string): Promise<string[] | undefined>;
}

export function readerFeed<Raw>(reader: HistoryReader<Raw>, decode: HostDecode<Raw>): ProjectionFeed {
  const stamp = async (sessionId: string) => {
    const one = await reader.stamp?.(sessionId);
    return one && stampText(one);
  };
  return {
    storePath: async (probe) => (reader.storePath && reader.stamp && reader.everySession ? reader.storePath(probe) : undefined),
    async sessions(probe) {
      return decodeSessions((await reader.everySession?.(probe)) ?? [], decode);
    },
    stamp,
    async stamps(sessionIds) {
      const many = await reader.stamps?.(sessionIds);
      if (!many) return stampsOneByOne(stamp)(sessionIds);
      const out = new Map<string, string>();
      for (const [id, stamp] of many) out.set(id, stampText(stamp));
      return out;
    },
    watermark: async () => reader.watermark?.(),
    changedSince: async (mark) => reader.sessionsChangedSince?.(mark),
    messages: async (sessionId, options) => decodeMessages(await reader.readAll(sessionId, options), sessionId, decode, options),
  };
}

/** `stamps` from a feed's `stamp`, one session at a time (stand-ins, readers with no bulk read). */
export function stampsOneByOne(stamp: (sessionId: string) => Promise<string | undefined>): ProjectionFeed["stamps"] {
  return async (sessionIds) => {
    const out = new Map<string, string>();
    for (const id of sessionIds) {
      const one = await stamp(id);
      if (one !== undefined) out.set(id, one);
    }
    return out;
  };
}

function stampText(stamp: SessionStamp): string {
  return [stamp.seq, stamp.rows, stamp.count ?? "", stamp.updated ?? ""].join(":");
}

/** The feed over every session of a store opened directly (the command line, the build thread, doctor). */
export function storeFeed(store: Store): ProjectionFeed {
  return readerFeed(store.reader, store.decode);
}
