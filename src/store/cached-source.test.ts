import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { user } from "../history/testing/messages.ts";
import type { HistoryMessage } from "../history/types.ts";
import { inSessionOrder } from "../history/message-order.ts";
import { CachedHistorySource, withChanges } from "./cached-source.ts";
import { FakeClient, rawId, rawText } from "./testing/fake-client.ts";
import { createSdkReader } from "./sdk-reader.ts";

const SID = "ses_a";

function setup(
  count: number,
  options: Partial<{ pageSize: number; timeoutMs: number; maxBytes: number; maxFirstInfos: number; pause: () => Promise<void> | undefined }> = {},
) {
  const client = new FakeClient();
  const session = client.addSession(
    SID,
    Array.from({ length: count }, (_, i) => rawText(SID, rawId("msg", i), i % 2 ? "assistant" : "user", `text ${i}`)),
  );
  const reader = createSdkReader(client, { pageSize: options.pageSize ?? 7, timeoutMs: options.timeoutMs ?? 1000 });
  const source = new CachedHistorySource(reader, {
    checkSize: 5,
    maxSingleReads: 3,
    maxBytes: options.maxBytes ?? 1 << 30,
    ...(options.pause ? { pause: options.pause } : {}),
    ...(options.maxFirstInfos ? { maxFirstInfos: options.maxFirstInfos } : {}),
  });
  return { client, session, source };
}

const pageReads = (client: FakeClient) => client.calls.filter((c) => c.method === "session.messages").length;
/** How many times the host was asked for the session's info. */
const infoReads = (client: FakeClient, sessionId: string) =>
  client.calls.filter((c) => c.method === "session.get" && (c.args as { path: { id: string } }).path.id === sessionId).length;

/** A pause hook that cancels `controller` at the second pause (after the first page). */
function cancelAtSecondPause(controller: AbortController): () => Promise<void> {
  let pauses = 0;
  return () => {
    if (++pauses === 2) controller.abort();
    return Promise.resolve();
  };
}

describe("cached history source", () => {
  it("reads a whole session through the page cursor", async () => {
    const { source, client } = setup(30);
    const messages = await source.loadMessages(SID);
    expect(messages.map((m) => m.id)).toEqual(Array.from({ length: 30 }, (_, i) => rawId("msg", i)));
    expect(client.calls.filter((c) => c.method === "session.messages")).toHaveLength(5);
  });

  it("reads a session asked not kept without keeping it; one kept already stays kept", async () => {
    const { source, client } = setup(12);
    const first = await source.loadMessages(SID, { keep: false });
    expect(first).toHaveLength(12);
    expect(source.cachedBytes).toBe(0);
    const pages = pageReads(client);
    await source.loadMessages(SID, { keep: false });
    expect(pageReads(client)).toBeGreaterThan(pages); // read again: nothing was kept
    const kept = await source.loadMessages(SID);
    expect(source.cachedBytes).toBeGreaterThan(0);
    expect(await source.loadMessages(SID, { keep: false })).toEqual(kept);
    expect(source.cachedBytes).toBeGreaterThan(0);
  });

  it("reads one message alone through the host's message request when it cannot tell the cached list is current", async () => {
    const { source, client, session } = setup(12);
    const list = await source.loadMessages(SID);
    (session.messages[4]!.parts[0] as { text: string }).text = "edited";
    const pages = pageReads(client);
    expect((await source.loadMessage(SID, rawId("msg", 4)))?.parts[0]).toMatchObject({ text: "edited" });
    expect(await source.loadMessage(SID, rawId("msg", 6))).toBe(list[6]);
    expect(await source.loadMessage(SID, rawId("msg", 40))).toBeUndefined();
    expect(client.calls.filter((c) => c.method === "session.message")).toHaveLength(3);
    expect(pageReads(client)).toBe(pages);
  });

  it("stops a cancelled one-message read", async () => {
    const { source } = setup(3);
    const cancelled = new AbortController();
    cancelled.abort(new Error("cancelled"));
    await expect(source.loadMessage(SID, rawId("msg", 1), { signal: cancelled.signal })).rejects.toThrow("cancelled");
  });

  it("falls back to one full read when the server ignores the cursor", async () => {
    const { source, client } = setup(30);
    client.faults.ignoreCursor = true;
    expect(await source.loadMessages(SID)).toHaveLength(30);
  });

  it("keeps unchanged message objects and picks up appended and edited ones", async () => {
    const { source, session } = setup(12);
    const first = await source.loadMessages(SID);
    session.messages.push(rawText(SID, rawId("msg", 12), "user", "appended"));
    (session.messages[11]!.parts[0] as { text: string }).text = "edited";
    const second = await source.loadMessages(SID);
    expect(second).toHaveLength(13);
    expect(second[0]).toBe(first[0]);
    expect(second[10]).toBe(first[10]);
    expect(second[11]).not.toBe(first[11]);
    expect(second[11]!.parts[0]).toMatchObject({ text: "edited" });
  });

  it("re-reads a message an event marked dirty even when it is older than the checked page", async () => {
    const { source, session } = setup(20);
    const first = await source.loadMessages(SID);
    (session.messages[2]!.parts[0] as { text: string }).text = "changed long ago";
    expect((await source.loadMessages(SID))[2]).toBe(first[2]);
    source.markDirty(SID, rawId("msg", 2));
    expect((await source.loadMessages(SID))[2]!.parts[0]).toMatchObject({ text: "changed long ago" });
  });

  it("notices removed messages (revert) and reloads when it missed more than a page", async () => {
    const { source, session } = setup(20);
    await source.loadMessages(SID);
    session.messages.splice(18, 2);
    expect((await source.loadMessages(SID)).map((m) => m.id).at(-1)).toBe(rawId("msg", 17));
    for (let i = 18; i < 40; i++) session.messages.push(rawText(SID, rawId("msg", i), "user", `late ${i}`));
    expect(await source.loadMessages(SID)).toHaveLength(40);
  });

  it("shares one read among concurrent callers", async () => {
    const { source, client } = setup(30);
    const results = await Promise.all(Array.from({ length: 20 }, () => source.loadMessages(SID)));
    expect(new Set(results).size).toBe(1);
    expect(client.calls.filter((c) => c.method === "session.get")).toHaveLength(1);
  });

  it("stops a cancelled read at its next piece", async () => {
    const controller = new AbortController();
    const { source, client } = setup(30, { pause: cancelAtSecondPause(controller) });
    await expect(source.loadMessages(SID, { signal: controller.signal })).rejects.toThrow(/abort/i);
    expect(pageReads(client)).toBe(1); // of 5 pages
    // Nothing half-read was kept: the next read starts over and completes.
    expect(await source.loadMessages(SID)).toHaveLength(30);
  });

  it("aborts the host request in flight when every caller of a read cancelled", async () => {
    const controller = new AbortController();
    const { source, client } = setup(30);
    client.beforeAnswer = (method) => {
      if (method !== "session.messages") return;
      client.faults.hang = true;
      controller.abort();
    };
    await expect(source.loadMessages(SID, { signal: controller.signal })).rejects.toThrow(/abort/i);
    const request = client.calls.find((c) => c.method === "session.messages")!.args as { signal?: AbortSignal };
    expect(request.signal?.aborted).toBe(true);
  });

  it("goes on with a shared read while another caller still waits for it", async () => {
    const controller = new AbortController();
    const { source, client } = setup(30, { pause: cancelAtSecondPause(controller) });
    const cancelled = source.loadMessages(SID, { signal: controller.signal });
    const kept = source.loadMessages(SID, { signal: new AbortController().signal });
    await expect(cancelled).rejects.toThrow(/abort/i);
    expect(await kept).toHaveLength(30);
    expect(pageReads(client)).toBe(5);
  });

  it("evicts the least recently read session past its byte budget", async () => {
    const { source, client } = setup(10, { maxBytes: 6000 });
    client.addSession(
      "ses_b",
      Array.from({ length: 10 }, (_, i) => rawText("ses_b", rawId("msg", i), "user", "b")),
    );
    await source.loadMessages(SID);
    const afterA = source.cachedBytes;
    await source.loadMessages("ses_b");
    expect(afterA).toBeGreaterThan(3000);
    expect(source.cachedBytes).toBeLessThanOrEqual(6000);
    // ses_a was evicted: reading it again starts from scratch (session.get runs again).
    await source.loadMessages(SID);
    expect(client.calls.filter((c) => c.method === "session.get" && (c.args as { path: { id: string } }).path.id === SID)).toHaveLength(2);
  });

  it("lets the first read share the permission check's info, and re-checks on a reload", async () => {
    const { source, client } = setup(10);
    await source.sessionOnce(SID);
    await source.loadMessages(SID);
    expect(infoReads(client, SID)).toBe(1);
    source.forget(SID); // as if evicted: the next read is a reload
    await source.loadMessages(SID);
    expect(infoReads(client, SID)).toBe(2);
    // The first info stays shared with later permission checks.
    await source.sessionOnce(SID);
    expect(infoReads(client, SID)).toBe(2);
  });

  it("remembers the first info of a bounded number of sessions, the least recently asked forgotten", async () => {
    const { source, client } = setup(1, { maxFirstInfos: 3 });
    const ids = Array.from({ length: 10 }, (_, i) => `ses_${i}`);
    for (const id of ids) client.addSession(id, [rawText(id, rawId("msg", 0), "user", "hi")]);
    for (const id of ids) await source.sessionOnce(id);
    for (const id of ids) await source.sessionOnce(id);
    // Asking ten sessions in turn past a bound of three: each was forgotten before it was asked again.
    for (const id of ids) expect(infoReads(client, id)).toBe(2);
    // The three asked last are still remembered, and a first read shares the newest one's info.
    for (const id of ids.slice(-3)) await source.sessionOnce(id);
    await source.loadMessages("ses_9");
    for (const id of ids.slice(-3)) expect(infoReads(client, id)).toBe(2);
    // Whether a session was loaded is forgotten with its info: after nine more loads, ses_9's info is
    // asked again and its next read is a first read, sharing it.
    for (const id of ids.slice(0, 9)) await source.loadMessages(id);
    source.forget("ses_9");
    await source.sessionOnce("ses_9");
    expect(infoReads(client, "ses_9")).toBe(3);
    await source.loadMessages("ses_9");
    expect(infoReads(client, "ses_9")).toBe(3);
  });

  it("turns faults into clear errors", async () => {
    const { source, client } = setup(3, { timeoutMs: 50 });
    await expect(source.loadMessages("ses_missing")).rejects.toThrow(/Session ses_missing not found\. Use history_sessions/);
    client.faults.status = 500;
    await expect(source.loadMessages(SID)).rejects.toThrow(/failed \(status 500\); this may be temporary/);
    client.faults = { hang: true };
    await expect(source.loadMessages(SID)).rejects.toThrow(/timed out after 50 ms/);
    client.faults = {};
    expect(await source.loadMessages(SID)).toHaveLength(3);
  });
});

/** Positioned messages sort against their ids (as OpenCode 2's forked rows can). */
const message = (id: string, text: string, positioned = false): HistoryMessage =>
  positioned ? { ...user(text), id, position: 1000 - Number(id.slice(4)) } : { ...user(text), id };

/** What a refresh gave before: every message in a map, the re-read ones applied, all sorted. */
function rebuilt(list: readonly HistoryMessage[], reread: ReadonlyMap<string, HistoryMessage | undefined>): HistoryMessage[] {
  const current = new Map(list.map((m) => [m.id, m]));
  for (const [id, m] of reread) {
    if (!m) current.delete(id);
    else if (!current.has(id) || !isDeepStrictEqual(current.get(id)!, m)) current.set(id, m);
  }
  return [...current.values()].sort(inSessionOrder);
}

describe("withChanges", () => {
  it("gives the list a full rebuild gives, keeping equal messages' objects", () => {
    const id = fc.integer({ min: 0, max: 60 }).map((n) => `msg_${n.toString().padStart(3, "0")}`);
    fc.assert(
      fc.property(
        fc.uniqueArray(id, { maxLength: 30 }),
        fc.array(fc.tuple(id, fc.constantFrom("gone", "same", "other")), { maxLength: 8 }),
        fc.boolean(),
        fc.boolean(),
        (ids, changes, shuffled, positioned) => {
          const sorted = ids.map((i) => message(i, "text", positioned)).sort(inSessionOrder);
          const list = shuffled ? [...sorted].reverse() : sorted;
          const reread = new Map<string, HistoryMessage | undefined>();
          for (const [changed, kind] of changes) {
            const cached = list.find((m) => m.id === changed);
            // "same": read again unchanged (an equal copy), or new when not cached.
            reread.set(changed, kind === "gone" ? undefined : kind === "same" && cached ? { ...cached } : message(changed, kind, positioned));
          }
          const got = withChanges(list, reread);
          const expected = rebuilt(list, reread);
          expect(got.length).toBe(expected.length);
          // The same objects, not only equal ones: the index keeps documents by object identity.
          for (const [i, m] of got.entries()) expect(m).toBe(expected[i]);
          // Chained refreshes keep working from a list withChanges made.
          expect(withChanges(got, new Map())).toEqual(got);
        },
      ),
      { numRuns: 300 },
    );
  });
});
