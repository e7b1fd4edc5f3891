// The SDK reader with the SQLite fast path in front of it for message reads. Sessions are listed
// and looked up through the SDK (it scopes lists to the project, and adds a session's agent); a
// session's stored info (its directory, parent, times) may come from the store instead, without a
// request to a host that is busy answering the model. The fast path is opened lazily, used only
// for sessions its database holds, and dropped for good on its first error.

import { HistoryError } from "../history/errors.ts";
import type { Log } from "../util/log.ts";
import type { HistoryReader, MessageReads, ReadOptions } from "./reader.ts";
import type { SqliteReader } from "./sqlite-reader.ts";

export type OpenFastPath = (probeSessionId: string) => Promise<SqliteReader | string>;

export function withFastPath(sdk: HistoryReader, open: OpenFastPath, log: Log): HistoryReader {
  let fast: Promise<SqliteReader | undefined> | undefined;
  let failed = false;

  async function fastFor(sessionId: string): Promise<SqliteReader | undefined> {
    if (failed) return undefined;
    fast ??= open(sessionId).then((result) => {
      if (typeof result === "string") {
        log("info", `SQLite fast path not used: ${result}; reading through the SDK`);
        failed = true;
        return undefined;
      }
      return result;
    });
    const reader = await fast;
    return reader?.holds(sessionId) ? reader : undefined;
  }

  async function attempt<T>(sessionId: string, read: (reader: MessageReads) => Promise<T>, options?: ReadOptions): Promise<T> {
    const reader = await fastFor(sessionId).catch(() => undefined);
    if (reader) {
      try {
        return await read(reader);
      } catch (error) {
        // A cancelled read is not a failure of the fast path.
        if (options?.signal?.aborted) throw error;
        failed = true;
        reader.close();
        log("warn", `SQLite fast path failed (${error instanceof Error ? error.message : String(error)}); reading through the SDK from now on`);
      }
    }
    return read(sdk);
  }

  return {
    readAll: (sessionId, options) => attempt(sessionId, (reader) => reader.readAll(sessionId, options), options),
    readNewest: (sessionId, count) => attempt(sessionId, (reader) => reader.readNewest(sessionId, count)),
    readOne: (sessionId, messageId) => attempt(sessionId, (reader) => reader.readOne(sessionId, messageId)),
    listSessions: () => sdk.listSessions(),
    async everySession(probeSessionId) {
      const reader = await fastFor(probeSessionId).catch(() => undefined);
      if (!reader)
        throw new HistoryError(
          "Searching every project needs the host's SQLite store, which could not be opened (see the plugin's log); search this project instead.",
        );
      return reader.everySession();
    },
    getSession: (sessionId) => sdk.getSession(sessionId),
    async storedSession(sessionId, probeSessionId) {
      // No caller's session ("" from a caller without one): only a store already open answers.
      if (!probeSessionId && fast === undefined) return undefined;
      const reader = await fastFor(probeSessionId || sessionId).catch(() => undefined);
      try {
        return reader?.sessionInfo(sessionId);
      } catch {
        return undefined; // the SDK answers; a failing store is given up by the next message read
      }
    },
    async storePath(probeSessionId) {
      return (await fastFor(probeSessionId).catch(() => undefined))?.path;
    },
    async stamp(sessionId) {
      const reader = await fastFor(sessionId).catch(() => undefined);
      return reader ? reader.stamp(sessionId) : undefined;
    },
    async stamps(sessionIds) {
      const reader = sessionIds[0] === undefined ? undefined : await fastFor(sessionIds[0]).catch(() => undefined);
      return reader?.stamps(sessionIds);
    },
    async changedSince(sessionId, since) {
      const reader = await fastFor(sessionId).catch(() => undefined);
      return reader ? reader.changedSince(sessionId, since) : undefined;
    },
    // The store open already (the projection opens it with its probe first), else nothing to say.
    async watermark() {
      const reader = failed ? undefined : await fast?.catch(() => undefined);
      return reader?.watermark?.();
    },
    async sessionsChangedSince(mark) {
      const reader = failed ? undefined : await fast?.catch(() => undefined);
      return reader?.sessionsChangedSince?.(mark);
    },
    async close() {
      failed = true;
      const reader = await fast?.catch(() => undefined);
      reader?.close();
    },
  };
}
