// A reader opened on first use, with a session known to exist as the probe that picks the store
// (opencode.db or a channel build's) and its project. OpenCode 2's setup runs before any session
// exists, and its context names no store: the first session a hook or tool call names is the probe.
// A failed open is not remembered: the store may appear later, and each call says why it failed.

import { HistoryError } from "../history/errors.ts";
import type { Log } from "../util/log.ts";
import type { HistoryReader, ReadOptions, SessionStamp } from "./reader.ts";

export interface LazyReader<Raw> extends HistoryReader<Raw> {
  /** A session the host just named (a hook's or a tool call's): the probe if nothing is open yet. */
  observe(sessionId: string): void;
}

export function lazyReader<Raw>(open: (probeSessionId: string) => Promise<HistoryReader<Raw> | string>, log: Log): LazyReader<Raw> {
  let observed: string | undefined;
  let opened: Promise<HistoryReader<Raw>> | undefined;
  let lastReason: string | undefined;

  const ready = (sessionId?: string): Promise<HistoryReader<Raw>> => {
    // The caller's own session before an id from a tool's arguments, which may be mistyped.
    const probe = observed ?? sessionId;
    if (opened) return opened;
    if (probe === undefined || probe === "") return Promise.reject(new HistoryError("The history store is not open yet: no session has been seen."));
    const attempt = open(probe).then((result) => {
      if (typeof result !== "string") return result;
      if (result !== lastReason) log("warn", `the history store could not be opened: ${result}`);
      lastReason = result;
      throw new HistoryError(`The stored history could not be read (${result}).`);
    });
    opened = attempt;
    attempt.catch(() => {
      if (opened === attempt) opened = undefined;
    });
    return attempt;
  };

  return {
    observe(sessionId) {
      if (observed === undefined && sessionId !== "") observed = sessionId;
    },
    readAll: async (sessionId: string, options?: ReadOptions) => (await ready(sessionId)).readAll(sessionId, options),
    readNewest: async (sessionId: string, count: number) => (await ready(sessionId)).readNewest(sessionId, count),
    readOne: async (sessionId: string, messageId: string) => (await ready(sessionId)).readOne(sessionId, messageId),
    listSessions: async () => (await ready()).listSessions(),
    getSession: async (sessionId: string) => (await ready(sessionId)).getSession(sessionId),
    async everySession(probeSessionId: string) {
      const reader = await ready(probeSessionId);
      if (!reader.everySession) throw new HistoryError("This store cannot list every project's sessions; search this project instead.");
      return reader.everySession(probeSessionId);
    },
    async storedSession(sessionId: string, probeSessionId?: string) {
      const reader = await ready(probeSessionId || sessionId);
      return reader.storedSession ? reader.storedSession(sessionId, probeSessionId) : reader.getSession(sessionId);
    },
    async storePath(probeSessionId: string) {
      return (await ready(probeSessionId)).storePath?.(probeSessionId);
    },
    async stamp(sessionId: string): Promise<SessionStamp | undefined> {
      return (await ready(sessionId)).stamp?.(sessionId);
    },
    async stamps(sessionIds: readonly string[]) {
      return sessionIds[0] === undefined ? undefined : (await ready(sessionIds[0])).stamps?.(sessionIds);
    },
    async changedSince(sessionId: string, since: SessionStamp) {
      return (await ready(sessionId)).changedSince?.(sessionId, since);
    },
    // Store-wide: any session seen may open the store; none seen yet, nothing to say.
    async watermark() {
      return (await ready().catch(() => undefined))?.watermark?.();
    },
    async sessionsChangedSince(mark: string) {
      return (await ready().catch(() => undefined))?.sessionsChangedSince?.(mark);
    },
    async close() {
      const reader = await opened?.catch(() => undefined);
      opened = undefined;
      await reader?.close?.();
    },
  };
}
