import { describe, expect, it } from "vitest";
import { CachedHistorySource } from "./cached-source.ts";
import { withFastPath } from "./fast-path-reader.ts";
import { FakeClient, rawId, rawText } from "./testing/fake-client.ts";
import { checkpoint, type RawMessage, type ReadOptions, type SessionStamp } from "./reader.ts";
import { createSdkReader } from "./sdk-reader.ts";
import type { SqliteReader } from "./sqlite-reader.ts";

const SID = "ses_a";

/** A store with the host's per-session event log and part row ids, standing in for the SQLite reader. */
class MemoryStore implements SqliteReader {
  rows = new Map<string, RawMessage>();
  /** Message ids in event order: events[seq] named that message. */
  events: string[] = [];
  /** First seq still in the log (older events pruned). */
  pruned = 0;
  /** Highest row id of written rows (import writes rows without events). */
  rowid = 0;
  rowOf = new Map<string, number>();
  reads = 0;
  pieces = 0;
  fail = false;
  put(raw: RawMessage) {
    const id = (raw.info as { id: string }).id;
    this.rows.set(id, raw);
    if (!this.rowOf.has(id)) this.rowOf.set(id, ++this.rowid);
    this.events.push(id);
  }
  remove(id: string) {
    this.rows.delete(id);
    this.events.push(id);
  }
  /** `opencode import` of a new message: rows, no event. */
  importRow(raw: RawMessage) {
    const id = (raw.info as { id: string }).id;
    this.rows.set(id, raw);
    this.rowOf.set(id, ++this.rowid);
  }
  private sorted() {
    return [...this.rows.values()].sort((a, b) => ((a.info as { id: string }).id < (b.info as { id: string }).id ? -1 : 1));
  }
  holds(sessionId: string) {
    return sessionId === SID;
  }
  async readAll(_: string, options: ReadOptions = {}) {
    if (this.fail) throw new Error("disk I/O error");
    this.reads++;
    const out: RawMessage[] = [];
    for (const row of this.sorted()) {
      this.pieces++;
      out.push(structuredClone(row));
      await checkpoint(options);
    }
    return out;
  }
  async readNewest(_: string, count: number) {
    return (await this.readAll(SID)).slice(-count);
  }
  async readOne(_: string, messageId: string) {
    this.reads++;
    const row = this.rows.get(messageId);
    return row ? structuredClone(row) : undefined;
  }
  async stamp(): Promise<SessionStamp> {
    return { seq: this.events.length - 1, rows: this.rowid };
  }
  async stamps(ids: readonly string[]): Promise<Map<string, SessionStamp>> {
    return new Map(ids.map((id) => [id, { seq: this.events.length - 1, rows: this.rowid }]));
  }
  async changedSince(_: string, since: SessionStamp) {
    if (since.seq + 1 < this.pruned) return undefined;
    const ids = new Set(this.events.slice(since.seq + 1));
    for (const [id, row] of this.rowOf) if (row > since.rows) ids.add(id);
    return [...ids];
  }
  async watermark() {
    return `${this.rowid}:${this.events.length}`;
  }
  async sessionsChangedSince(mark: string) {
    return mark === (await this.watermark()) ? [] : [SID];
  }
  private readonly sessions = [
    { id: SID, title: "here", directory: "/p", time: { created: 1, updated: 5 } },
    { id: "ses_elsewhere", title: "there", directory: "/q", time: { created: 2, updated: 9 } },
  ];
  async everySession() {
    return this.sessions;
  }
  async listSessions() {
    return this.sessions;
  }
  sessionInfo(sessionId: string) {
    return this.sessions.find((info) => info.id === sessionId);
  }
  async getSession(sessionId: string) {
    return this.sessionInfo(sessionId);
  }
  closed = 0;
  async close() {
    this.closed++;
  }
}

/** `strictProbe`: the store refuses to open for a session it does not hold, as openSqliteReader does. */
function setup(strictProbe = false) {
  const client = new FakeClient();
  const messages = Array.from({ length: 10 }, (_, i) => rawText(SID, rawId("msg", i), "user", `m${i}`));
  client.addSession(SID, messages);
  client.addSession("ses_other", [rawText("ses_other", rawId("msg", 0), "user", "other")]);
  const store = new MemoryStore();
  for (const message of messages) store.put(structuredClone(message));
  const logs: string[] = [];
  const probes: string[] = [];
  const open = async (probe: string) => {
    probes.push(probe);
    return !strictProbe || store.holds(probe) ? store : `does not hold session ${probe}`;
  };
  const reader = withFastPath(createSdkReader(client, { pageSize: 50, timeoutMs: 1000 }), open, (_, message) => logs.push(message));
  const source = new CachedHistorySource(reader, { checkSize: 5, maxSingleReads: 5, maxBytes: 1 << 30 });
  return { client, store, reader, source, logs, probes };
}

describe("SQLite fast path with SDK fallback", () => {
  it("answers an unchanged session from cache after one stamp check, and re-reads only what was written", async () => {
    const { client, store, source } = setup();
    const first = await source.loadMessages(SID);
    expect(client.calls.filter((c) => c.method === "session.messages")).toHaveLength(0);
    const readsAfterFirst = store.reads;
    expect(await source.loadMessages(SID)).toBe(first);
    expect(store.reads).toBe(readsAfterFirst);
    store.put(rawText(SID, rawId("msg", 3), "user", "edited long ago"));
    store.put(rawText(SID, rawId("msg", 10), "user", "appended"));
    const third = await source.loadMessages(SID);
    expect(third).toHaveLength(11);
    expect(third[3]!.parts[0]).toMatchObject({ text: "edited long ago" });
    expect(third[2]).toBe(first[2]);
    expect(store.reads - readsAfterFirst).toBeLessThanOrEqual(3);
  });

  it("drops a message the host removed, re-reading only it", async () => {
    const { store, source } = setup();
    await source.loadMessages(SID);
    const readsBefore = store.reads;
    store.remove(rawId("msg", 4));
    expect((await source.loadMessages(SID)).map((m) => m.id)).not.toContain(rawId("msg", 4));
    expect(store.reads - readsBefore).toBe(1);
  });

  it("sees messages written without an event (an import) by their row ids", async () => {
    const { store, source } = setup();
    await source.loadMessages(SID);
    store.importRow(rawText(SID, rawId("msg", 20), "user", "imported"));
    expect((await source.loadMessages(SID)).map((m) => m.id)).toContain(rawId("msg", 20));
  });

  it("reads everything again when the events since the last read were pruned", async () => {
    const { store, source } = setup();
    await source.loadMessages(SID);
    const readsBefore = store.reads;
    store.put(rawText(SID, rawId("msg", 5), "user", "edited"));
    store.pruned = store.events.length;
    expect((await source.loadMessages(SID))[5]!.parts[0]).toMatchObject({ text: "edited" });
    expect(store.reads - readsBefore).toBe(1);
    expect(store.pieces).toBe(20);
  });

  it("uses the SDK for sessions the database does not hold, and for good after a failure", async () => {
    const { client, store, source, logs } = setup();
    expect(await source.loadMessages("ses_other")).toHaveLength(1);
    expect(client.calls.some((c) => c.method === "session.messages")).toBe(true);
    store.fail = true;
    expect(await source.loadMessages(SID)).toHaveLength(10);
    expect(logs.some((line) => /SQLite fast path failed \(disk I\/O error\)/.test(line))).toBe(true);
  });

  it("reads a session's info from the store, opened with the caller's session, with no request to the host", async () => {
    const { client, store, source, probes } = setup(true);
    expect(await source.sessionOnce("ses_elsewhere", SID)).toMatchObject({ id: "ses_elsewhere", directory: "/q" });
    expect(await source.sessionOnce(SID, SID)).toMatchObject({ id: SID, directory: "/p" });
    expect(await source.loadMessages(SID)).toHaveLength(10);
    expect(probes).toEqual([SID]);
    expect(store.reads).toBeGreaterThan(0);
    expect(client.calls.filter((c) => c.method === "session.get" || c.method === "session.messages")).toEqual([]);
  });

  it("asks the host for a session the store does not hold; a mistyped id never decides whether the store is used", async () => {
    const { client, store, source, probes, logs } = setup(true);
    await expect(source.sessionOnce("ses_mistyped", SID)).rejects.toThrow(/ses_mistyped not found/);
    expect(client.calls.filter((c) => c.method === "session.get")).toHaveLength(1);
    // The open store does not hold it either: the host is asked, and the store stays.
    await expect(source.sessionOnce("ses_mistyped_too")).rejects.toThrow(/not found/);
    expect(probes).toEqual([SID]);
    expect(await source.loadMessages(SID)).toHaveLength(10);
    expect(store.reads).toBeGreaterThan(0);
    expect(logs.filter((line) => /fast path not used/.test(line))).toEqual([]);
  });

  it("opens no store for a session's info without the caller's session", async () => {
    const { client, source, probes } = setup(true);
    expect(await source.sessionOnce("ses_other")).toMatchObject({ id: "ses_other" });
    await expect(source.sessionOnce("ses_mistyped", "")).rejects.toThrow(/not found/);
    expect(probes).toEqual([]);
    expect(client.calls.filter((c) => c.method === "session.get")).toHaveLength(2);
    expect(await source.loadMessages(SID)).toHaveLength(10);
    expect(probes).toEqual([SID]);
  });

  it("lists every project's sessions from the store, newest first; the SDK alone cannot", async () => {
    const { source, client } = setup();
    const every = await source.listEverySession(SID);
    expect(every.map((session) => [session.id, session.directory])).toEqual([
      ["ses_elsewhere", "/q"],
      [SID, "/p"],
    ]);
    const sdkOnly = new CachedHistorySource(createSdkReader(client, { pageSize: 50, timeoutMs: 1000 }), { checkSize: 5, maxSingleReads: 5, maxBytes: 1 << 30 });
    await expect(sdkOnly.listEverySession(SID)).rejects.toThrow(/needs the host's SQLite store/);
  });

  it("closes the database on close (plugin dispose), and reads through the SDK after it", async () => {
    const { client, store, reader } = setup();
    expect(await reader.readAll(SID)).toHaveLength(10);
    expect(client.calls.some((c) => c.method === "session.messages")).toBe(false);
    await reader.close!();
    expect(store.closed).toBe(1);
    expect(await reader.readAll(SID)).toHaveLength(10);
    expect(client.calls.some((c) => c.method === "session.messages")).toBe(true);
    expect(store.closed).toBe(1);
  });

  it("gives one message from the cached list while the session's stamp has not moved, reading nothing", async () => {
    const { store, source } = setup();
    const list = await source.loadMessages(SID);
    const reads = store.reads;
    expect(await source.loadMessage(SID, rawId("msg", 3))).toBe(list[3]);
    expect(await source.loadMessage(SID, rawId("msg", 42))).toBeUndefined();
    expect(store.reads).toBe(reads);
  });

  it("reads only the message asked for when the session changed, and leaves the cache to its own refresh", async () => {
    const { store, source } = setup();
    const list = await source.loadMessages(SID);
    store.put(rawText(SID, rawId("msg", 3), "user", "edited"));
    store.put(rawText(SID, rawId("msg", 10), "user", "appended"));
    const [reads, pieces] = [store.reads, store.pieces];
    expect((await source.loadMessage(SID, rawId("msg", 3)))?.parts[0]).toMatchObject({ text: "edited" });
    // Read again and equal to the cached one: the cached object.
    expect(await source.loadMessage(SID, rawId("msg", 5))).toBe(list[5]);
    expect((await source.loadMessage(SID, rawId("msg", 10)))?.parts[0]).toMatchObject({ text: "appended" });
    expect([store.reads - reads, store.pieces - pieces]).toEqual([3, 0]);
    // The cache still holds the list as read: its refresh re-reads the two changed messages alone.
    const refreshed = await source.loadMessages(SID);
    expect(refreshed).toHaveLength(11);
    expect(refreshed[3]!.parts[0]).toMatchObject({ text: "edited" });
    expect([store.reads - reads, store.pieces - pieces]).toEqual([5, 0]);
  });

  it("reads a message of a session not cached without caching the session", async () => {
    const { store, source } = setup();
    expect((await source.loadMessage(SID, rawId("msg", 2)))?.parts[0]).toMatchObject({ text: "m2" });
    expect(await source.loadMessage(SID, rawId("msg", 42))).toBeUndefined();
    expect([source.cachedBytes, store.pieces]).toEqual([0, 0]);
  });

  it("gives the store's watermark only once the store is open, and none after a failure", async () => {
    const { store, reader } = setup();
    expect(await reader.watermark!()).toBeUndefined();
    await reader.readAll(SID);
    const mark = await reader.watermark!();
    expect(mark).toBe("10:10");
    store.put(rawText(SID, rawId("msg", 10), "user", "appended"));
    expect(await reader.sessionsChangedSince!(mark!)).toEqual([SID]);
    store.fail = true;
    await reader.readAll(SID);
    expect(await reader.watermark!()).toBeUndefined();
  });

  it("closes nothing when the database was never opened", async () => {
    const { store, reader } = setup();
    await reader.close!();
    expect(store.closed).toBe(0);
  });
});
