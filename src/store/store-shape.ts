// What the command line's store gives, whichever OpenCode wrote it (store.ts opens one).

import type { HostDecode, MessageReads, SessionStamp } from "./reader.ts";
import type { StoreGeneration } from "./store-generation.ts";

interface StoreStats {
  sessions: number;
  messages: number;
  /** OpenCode 1.x only: OpenCode 2 keeps a message's parts inside its row. */
  parts?: number;
  /** The database file with its write-ahead log. */
  bytes: number;
  /** Bytes of message (and part) JSON: what a cold search of everything reads. */
  dataBytes: number;
}

/** OpenCode 2 only: the 1.x tables it left in the file, frozen at its first start. */
export interface LegacyCopy {
  /** Sessions in the 1.x `session` table. */
  sessions: number;
  /** Of those, the ones absent from `session_v2`: written by 1.x after the import, or never imported. */
  notImported: number;
  /** The importer's state, kv['migration.v1-v2'].phase, when recorded. */
  migration?: string;
}

/** A store's message reads, with the change stamps every generation's store gives, and its watermark where it has one. */
type StoreReads = MessageReads<unknown> & {
  stamp(sessionId: string): Promise<SessionStamp>;
  stamps(sessionIds: readonly string[]): Promise<Map<string, SessionStamp>>;
  changedSince(sessionId: string, since: SessionStamp): Promise<string[] | undefined>;
  watermark?(): Promise<string>;
  sessionsChangedSince?(mark: string): Promise<string[] | undefined>;
};

export interface Store {
  path: string;
  generation: StoreGeneration;
  reads: StoreReads;
  /** The generation's raw shapes into the core's types. */
  decode: HostDecode<unknown>;
  /** Every session of every project, in the generation's raw shape (each has `id` and `directory`). */
  sessions(): unknown[];
  /** One session by id in the generation's raw shape, if the store has it (an index lookup). */
  session(sessionId: string): Promise<unknown | undefined>;
  /** The session holding a message, if the store has it. */
  sessionOfMessage(messageId: string): string | undefined;
  /** Bytes of message (and part) JSON per session. */
  sessionBytes(): Map<string, number>;
  /** The OpenCode version that last wrote a session (the session table's `version` column), if recorded. */
  writerVersion(): string | undefined;
  stats(): StoreStats;
  /** OpenCode 2 stores holding the 1.x tables too. */
  legacy?: LegacyCopy;
  close(): void;
}
