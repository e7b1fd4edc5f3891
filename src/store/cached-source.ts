// A HistorySource over a raw reader, with a per-session message cache kept current by host events
// and by a cheap check on every read (the store's change stamp, else the newest page). Unchanged
// messages keep their object identity across refreshes; the cache is bounded by an estimate of the
// bytes it holds. Whole reads run in pieces (`pause` between them) and stop when every caller
// waiting on them has cancelled. Messages read again are applied to the cached list without
// rebuilding it: a message appended to a 20,000-message session costs a copy of the list, not a
// map of every message and a sort.

import { isDeepStrictEqual } from "node:util";
import { HistoryError } from "../history/errors.ts";
import type { HistoryMessage, SessionInfo } from "../history/types.ts";
import { BoundedMap } from "../util/bounded-map.ts";
import type { HistorySource, LoadOptions } from "../history/source.ts";
import { V1_DECODE } from "./map.ts";
import { decodeMessages, decodeSessions, type HistoryReader, type HostDecode, type RawMessage, type ReadOptions, type SessionStamp } from "./reader.ts";
import { insertionIndex, inSessionOrder, messageIndex } from "../history/message-order.ts";

/** Lists withChanges made or checked: in session order, one message per id. */
const inOrder = new WeakSet<readonly HistoryMessage[]>();

function isInOrder(list: readonly HistoryMessage[]): boolean {
  if (inOrder.has(list)) return true;
  const ids = new Set<string>();
  for (let i = 0; i < list.length; i++) {
    if (i > 0 && !(inSessionOrder(list[i - 1]!, list[i]!) < 0)) return false;
    // Strictly ascending ids are distinct; positions are not ids, so a positioned list is checked.
    if (list[i]!.position !== undefined) {
      if (ids.has(list[i]!.id)) return false;
      ids.add(list[i]!.id);
    }
  }
  inOrder.add(list);
  return true;
}

/**
 * `list` with the re-read messages applied, in session order: a message read again replaces the
 * one of its id unless equal (the cached object stays), a new one is inserted, and an id read as
 * undefined (gone from the store) is removed. A list not in session order is rebuilt and sorted.
 */
export function withChanges(list: readonly HistoryMessage[], reread: ReadonlyMap<string, HistoryMessage | undefined>): HistoryMessage[] {
  if (!isInOrder(list)) {
    const current = new Map(list.map((message) => [message.id, message]));
    for (const [id, message] of reread) {
      const cached = current.get(id);
      if (!message) current.delete(id);
      else if (!cached || !isDeepStrictEqual(cached, message)) current.set(id, message);
    }
    const sorted = [...current.values()].sort(inSessionOrder);
    inOrder.add(sorted);
    return sorted;
  }
  const out = list.slice();
  for (const [id, message] of reread) {
    const at = messageIndex(out, id);
    if (!message) {
      if (at !== undefined) out.splice(at, 1);
    } else if (at === undefined) out.splice(insertionIndex(out, message), 0, message);
    else if (inSessionOrder(out[at]!, message) !== 0) {
      // Its position changed: take it out and put it where it now belongs.
      out.splice(at, 1);
      out.splice(insertionIndex(out, message), 0, message);
    } else if (!isDeepStrictEqual(out[at]!, message)) out[at] = message;
  }
  inOrder.add(out);
  return out;
}

export interface CachedSourceOptions {
  /** Messages compared on every read to catch writes no event announced. */
  checkSize: number;
  /** Dirty messages re-read one by one before a full reload is cheaper. */
  maxSingleReads: number;
  /** Estimated bytes of all cached sessions together. */
  maxBytes: number;
  /** Between pieces of a whole-session read: a promise when the event loop is due a turn. */
  pause?: () => Promise<void> | undefined;
  /** Sessions whose first info is remembered (default MAX_FIRST_INFOS); the least recently asked go first. */
  maxFirstInfos?: number;
}

/** A plugin instance serves every session the host opens: remember the first info of this many. */
const MAX_FIRST_INFOS = 2000;

/**
 * A session's info as first read (sessionOnce), and whether a whole read has used it: the first
 * read may share it, a reload re-checks. One entry, so both are forgotten together.
 */
interface FirstInfo {
  info?: Promise<SessionInfo>;
  loaded: boolean;
}

/** One read of a session shared by every concurrent caller; cancelled when all of them cancel. */
interface SharedLoad {
  done: Promise<HistoryMessage[]>;
  controller: AbortController;
  /** Callers still waiting that did not cancel; undefined counts as a caller that cannot. */
  waiting: number;
}

interface SessionEntry {
  /** Chronological. */
  messages: HistoryMessage[];
  bytes: number;
  /** Message ids an event said changed since the last read; "all" forces a reload. */
  dirty: Set<string> | "all";
  /** The store's change stamp when the messages were read (SQLite path only). */
  stamp?: SessionStamp;
}

/** Messages are immutable, so each one's estimate is computed once, not on every refresh. */
const estimates = new WeakMap<HistoryMessage, number>();

function estimateBytes(message: HistoryMessage): number {
  const known = estimates.get(message);
  if (known !== undefined) return known;
  let bytes = 200;
  for (const part of message.parts) {
    bytes += 100;
    if (part.kind === "text" || part.kind === "reasoning") bytes += part.text.length * 2;
    else if (part.kind === "tool") bytes += ((part.output?.length ?? 0) + (part.error?.length ?? 0)) * 2 + 200;
    else if (part.kind === "subtask") bytes += part.prompt.length * 2;
  }
  estimates.set(message, bytes);
  return bytes;
}

function sameStamp(a: SessionStamp, b: SessionStamp): boolean {
  return a.seq === b.seq && a.rows === b.rows && a.count === b.count && a.updated === b.updated;
}

function newestFirst(sessions: SessionInfo[]): SessionInfo[] {
  return sessions.sort((a, b) => (b.updated ?? b.created ?? 0) - (a.updated ?? a.created ?? 0));
}

export class CachedHistorySource<Raw = RawMessage> implements HistorySource {
  /** Least recently read first; the session just read always stays, whatever its size. */
  private readonly sessions: BoundedMap<string, SessionEntry>;
  private readonly inflight = new Map<string, SharedLoad>();
  private readonly firstInfo: BoundedMap<string, FirstInfo>;

  constructor(
    private readonly reader: HistoryReader<Raw>,
    private readonly options: CachedSourceOptions,
    /** The reader's host generation: OpenCode 1.x unless told otherwise. */
    private readonly decode: HostDecode<Raw> = V1_DECODE,
  ) {
    this.sessions = new BoundedMap({ max: options.maxBytes, weight: (entry) => entry.bytes });
    this.firstInfo = new BoundedMap(options.maxFirstInfos ?? MAX_FIRST_INFOS);
  }

  async listSessions(): Promise<SessionInfo[]> {
    return newestFirst(decodeSessions(await this.reader.listSessions(), this.decode));
  }

  async listEverySession(callerSessionId: string): Promise<SessionInfo[]> {
    if (!this.reader.everySession)
      throw new HistoryError("Searching every project needs the host's SQLite store (store.sqlite_fast_path); search this project instead.");
    return newestFirst(decodeSessions(await this.reader.everySession(callerSessionId), this.decode));
  }

  async getSession(sessionId: string): Promise<SessionInfo> {
    const session = this.decode.session(await this.reader.getSession(sessionId));
    if (!session) {
      throw new HistoryError(`Session ${sessionId} not found. Use history_sessions to list this project's sessions.`);
    }
    return session;
  }

  /**
   * The session's info as first read, shared: for what never changes (its directory), so from the
   * store when it holds the session (no agent), else from the host. `callerSessionId`, the
   * calling session (it exists), may open the store.
   */
  sessionOnce(sessionId: string, callerSessionId?: string): Promise<SessionInfo> {
    const known = this.firstInfo.get(sessionId);
    if (known?.info) return known.info;
    const info = this.storedOrAsked(sessionId, callerSessionId);
    this.firstInfo.set(sessionId, { info, loaded: known?.loaded ?? false });
    // A failed read is not remembered; whether a whole read was made still is.
    info.catch(() => {
      const entry = this.firstInfo.peek(sessionId);
      if (entry?.info === info) delete entry.info;
    });
    return info;
  }

  /** The session's info from the store when it can say (no request to the host), else from the host. */
  private async storedOrAsked(sessionId: string, probeSessionId?: string): Promise<SessionInfo> {
    const stored = this.decode.session(await this.reader.storedSession?.(sessionId, probeSessionId));
    return stored ?? this.getSession(sessionId);
  }

  /**
   * Concurrent callers of one session share one read (kept when the first one asked it kept); it
   * stops only when all of them cancelled.
   */
  loadMessages(sessionId: string, options: LoadOptions = {}): Promise<HistoryMessage[]> {
    const { signal, keep = true } = options;
    signal?.throwIfAborted();
    let shared = this.inflight.get(sessionId);
    if (!shared) {
      const controller = new AbortController();
      const load: SharedLoad = { controller, waiting: 0, done: Promise.resolve([]) };
      load.done = this.refresh(sessionId, { signal: controller.signal, ...(this.options.pause ? { pause: this.options.pause } : {}) }, keep).finally(() => {
        if (this.inflight.get(sessionId) === load) this.inflight.delete(sessionId);
      });
      this.inflight.set(sessionId, load);
      shared = load;
    }
    const load = shared;
    load.waiting++;
    if (!signal) return load.done;
    return new Promise<HistoryMessage[]>((resolve, reject) => {
      const onAbort = () => {
        reject(signal.reason);
        if (--load.waiting === 0) {
          load.controller.abort(signal.reason);
          // Nobody waits for it any more: the next caller starts a fresh read.
          if (this.inflight.get(sessionId) === load) this.inflight.delete(sessionId);
        }
      };
      signal.addEventListener("abort", onAbort, { once: true });
      load.done.then(
        (messages) => {
          signal.removeEventListener("abort", onAbort);
          resolve(messages);
        },
        (error: unknown) => {
          signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      );
    });
  }

  /**
   * One message as loadMessages gives it: from the cached list while the session's stamp has not
   * moved (the same object), else read alone, leaving the cache as it is (a many-session search
   * reads a few messages of many sessions; filling the cache with them would evict the sessions in
   * use). A fresh read equal to the cached message gives the cached object.
   */
  async loadMessage(sessionId: string, messageId: string, options: LoadOptions = {}): Promise<HistoryMessage | undefined> {
    options.signal?.throwIfAborted();
    const entry = this.sessions.peek(sessionId);
    const cached = entry?.messages.find((message) => message.id === messageId);
    if (entry?.stamp && entry.dirty !== "all" && !entry.dirty.has(messageId)) {
      const stamp = await this.reader.stamp?.(sessionId);
      if (stamp && sameStamp(stamp, entry.stamp)) return cached;
    }
    const message = await this.readOne(sessionId, messageId);
    options.signal?.throwIfAborted();
    return message && cached && isDeepStrictEqual(cached, message) ? cached : message;
  }

  /** Host event: a message of this session changed (or was added or removed). */
  markDirty(sessionId: string, messageId?: string): void {
    const entry = this.sessions.peek(sessionId);
    if (!entry || entry.dirty === "all") return;
    if (messageId === undefined || entry.dirty.size >= this.options.maxSingleReads) entry.dirty = "all";
    else entry.dirty.add(messageId);
  }

  forget(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  /** Estimated bytes held, for tests and the bench. */
  get cachedBytes(): number {
    return this.sessions.totalWeight();
  }

  private async refresh(sessionId: string, read: ReadOptions, keep: boolean): Promise<HistoryMessage[]> {
    const entry = this.sessions.peek(sessionId);
    if (!entry && !keep) return this.readAll(sessionId, read);
    // Stamp first: a write landing during the read changes the next stamp, so it is not missed.
    const stamp = await this.reader.stamp?.(sessionId);
    let messages: HistoryMessage[];
    if (!entry || entry.dirty === "all") messages = await this.readAll(sessionId, read);
    else if (stamp && entry.stamp) {
      if (entry.dirty.size === 0 && sameStamp(stamp, entry.stamp)) {
        this.sessions.get(sessionId); // now the most recently read
        return entry.messages;
      }
      messages = await this.updateFromStamp(sessionId, entry, entry.stamp, read);
    } else messages = await this.update(sessionId, entry, read);
    this.store(sessionId, messages, stamp);
    return messages;
  }

  /** With the store's change log, re-read exactly the messages written since the last read. */
  private async updateFromStamp(sessionId: string, entry: SessionEntry, before: SessionStamp, read: ReadOptions): Promise<HistoryMessage[]> {
    const changed = await this.reader.changedSince!(sessionId, before);
    if (changed === undefined) return this.readAll(sessionId, read);
    const ids = new Set([...changed, ...(entry.dirty as Set<string>)]);
    if (ids.size > this.options.maxSingleReads * 4) return this.readAll(sessionId, read);
    const reread = new Map<string, HistoryMessage | undefined>();
    for (const messageId of ids) reread.set(messageId, await this.readOne(sessionId, messageId));
    return withChanges(entry.messages, reread);
  }

  /** One message read alone; undefined when it is gone from the store (or carries no history). */
  private async readOne(sessionId: string, messageId: string): Promise<HistoryMessage | undefined> {
    const raw = await this.reader.readOne(sessionId, messageId);
    return raw ? this.decode.message(raw, sessionId) : undefined;
  }

  private async readAll(sessionId: string, read: ReadOptions): Promise<HistoryMessage[]> {
    if (!this.sessions.has(sessionId)) {
      // Fails for a session that does not exist. The first read may share the info a permission
      // check just fetched; a reload re-checks (in the store, when it is open and holds the session).
      const first = this.firstInfo.get(sessionId);
      await (first?.info && !first.loaded ? first.info : this.storedOrAsked(sessionId));
      const known = this.firstInfo.peek(sessionId);
      if (known) known.loaded = true;
      else this.firstInfo.set(sessionId, { loaded: true });
    }
    // Each message estimated as it is decoded, between pauses: store() then sums cached figures in one short block.
    return decodeMessages(await this.reader.readAll(sessionId, read), sessionId, this.decode, read, estimateBytes);
  }

  /** Without a change stamp: the newest page read again, and the messages events named. */
  private async update(sessionId: string, entry: SessionEntry, read: ReadOptions): Promise<HistoryMessage[]> {
    const dirty = entry.dirty as Set<string>;
    entry.dirty = new Set();
    const newest = await decodeMessages(await this.reader.readNewest(sessionId, this.options.checkSize), sessionId, this.decode);
    const oldestNew = newest[0];
    const cachedNewest = entry.messages[entry.messages.length - 1];
    const cachedIds = new Set(entry.messages.map((message) => message.id));
    // A full page whose oldest message is unknown and newer than the cache: we missed more than a page.
    if (
      newest.length >= this.options.checkSize &&
      oldestNew &&
      !cachedIds.has(oldestNew.id) &&
      (!cachedNewest || inSessionOrder(oldestNew, cachedNewest) > 0)
    ) {
      return this.readAll(sessionId, read);
    }
    const reread = new Map<string, HistoryMessage | undefined>();
    // Cached messages inside the page's range that the page lacks were removed (revert).
    if (oldestNew !== undefined) {
      for (const message of entry.messages) if (inSessionOrder(message, oldestNew) >= 0) reread.set(message.id, undefined);
    }
    for (const message of newest) reread.set(message.id, message);
    for (const messageId of dirty) if (!reread.has(messageId) && cachedIds.has(messageId)) reread.set(messageId, await this.readOne(sessionId, messageId));
    return withChanges(entry.messages, reread);
  }

  private store(sessionId: string, messages: HistoryMessage[], stamp: SessionStamp | undefined): void {
    const bytes = messages.reduce((sum, message) => sum + estimateBytes(message), 0);
    this.sessions.set(sessionId, { messages, bytes, dirty: new Set(), stamp });
  }
}
