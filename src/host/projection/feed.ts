// What the projection reads of a store, over either OpenCode generation's reader: every session,
// each one's change stamp, and its messages, read straight from the reader (not through the
// message cache, which a pass over thousands of sessions would empty of the sessions in use).

import type { HistoryMessage, SessionInfo } from "../../history/types.ts";
import { checkpoint, type HistoryReader, type HostDecode, type ReadOptions } from "../reader.ts";
import { storeReader } from "../store.ts";
import type { Store } from "../store-shape.ts";

export interface ProjectionFeed {
  /** The store file, opened with the probe session if need be; undefined when the reader reads none (SDK only). */
  storePath(probeSessionId: string): Promise<string | undefined>;
  /** Every session of every project in the store. */
  sessions(probeSessionId: string): Promise<SessionInfo[]>;
  /** The session's change stamp as text; undefined when the reader cannot tell (no projection then). */
  stamp(sessionId: string): Promise<string | undefined>;
  messages(sessionId: string, options: ReadOptions): Promise<HistoryMessage[]>;
}

export function readerFeed<Raw>(reader: HistoryReader<Raw>, decode: HostDecode<Raw>): ProjectionFeed {
  return {
    storePath: async (probe) => (reader.storePath && reader.stamp && reader.everySession ? reader.storePath(probe) : undefined),
    async sessions(probe) {
      const raw = (await reader.everySession?.(probe)) ?? [];
      return raw.map((entry) => decode.session(entry)).filter((session): session is SessionInfo => session !== undefined);
    },
    async stamp(sessionId) {
      const stamp = await reader.stamp?.(sessionId);
      return stamp && [stamp.seq, stamp.rows, stamp.count ?? "", stamp.updated ?? ""].join(":");
    },
    async messages(sessionId, options) {
      const out: HistoryMessage[] = [];
      for (const raw of await reader.readAll(sessionId, options)) {
        const message = decode.message(raw, sessionId);
        if (message) out.push(message);
        const due = checkpoint(options);
        if (due) await due;
      }
      return out;
    },
  };
}

/** The feed over every session of a store opened directly (the command line, the build thread, doctor). */
export function storeFeed(store: Store): ProjectionFeed {
  return readerFeed(
    storeReader(store, () => true),
    store.decode,
  );
}
