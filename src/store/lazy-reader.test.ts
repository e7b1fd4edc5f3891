import { describe, expect, it } from "vitest";
import { HistoryError } from "../history/errors.ts";
import { lazyReader } from "./lazy-reader.ts";
import type { HistoryReader } from "./reader.ts";

function fakeStore(holds: string[]) {
  let closed = 0;
  const reader: HistoryReader<string> = {
    readAll: async (sessionId) => [`all of ${sessionId}`],
    readNewest: async (sessionId, count) => [`newest ${count} of ${sessionId}`],
    readOne: async (_sessionId, messageId) => messageId,
    listSessions: async () => holds.map((id) => ({ id })),
    getSession: async (sessionId) => (holds.includes(sessionId) ? { id: sessionId } : undefined),
    watermark: async () => "mark 1",
    sessionsChangedSince: async (mark) => (mark === "mark 1" ? [] : holds),
    close: async () => void closed++,
  };
  return { reader, closed: () => closed };
}

describe("lazyReader", () => {
  it("opens on first use with the observed session as probe, not an id from the arguments", async () => {
    const store = fakeStore(["ses_caller"]);
    const probes: string[] = [];
    const reader = lazyReader(
      async (probe) => {
        probes.push(probe);
        return store.reader.getSession(probe).then((found) => (found ? store.reader : `does not hold ${probe}`));
      },
      () => {},
    );
    reader.observe("ses_caller");
    reader.observe("ses_later");
    expect(await reader.readAll("ses_typo")).toEqual(["all of ses_typo"]);
    expect(await reader.listSessions()).toEqual([{ id: "ses_caller" }]);
    expect(probes).toEqual(["ses_caller"]);
  });

  it("says why it cannot open, logs each reason once, and tries again on the next call", async () => {
    const store = fakeStore(["ses_a"]);
    let available = false;
    const logs: string[] = [];
    const reader = lazyReader(
      async () => (available ? store.reader : "no database in /data"),
      (_level, message) => logs.push(message),
    );
    await expect(reader.listSessions()).rejects.toThrow("no session has been seen");
    reader.observe("ses_a");
    for (let i = 0; i < 2; i++) {
      const error = await reader.readAll("ses_a").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HistoryError);
      expect((error as Error).message).toBe("The stored history could not be read (no database in /data).");
    }
    expect(logs).toEqual(["the history store could not be opened: no database in /data"]);
    available = true;
    expect(await reader.readNewest("ses_a", 2)).toEqual(["newest 2 of ses_a"]);
  });

  it("gives the store's watermark once a session has been seen, nothing before", async () => {
    const store = fakeStore(["ses_a"]);
    const reader = lazyReader(
      async () => store.reader,
      () => {},
    );
    expect(await reader.watermark!()).toBeUndefined();
    expect(await reader.sessionsChangedSince!("mark 0")).toBeUndefined();
    reader.observe("ses_a");
    expect(await reader.watermark!()).toBe("mark 1");
    expect(await reader.sessionsChangedSince!("mark 0")).toEqual(["ses_a"]);
  });

  it("closes what it opened, once", async () => {
    const store = fakeStore(["ses_a"]);
    const reader = lazyReader(
      async () => store.reader,
      () => {},
    );
    await reader.close!();
    expect(store.closed()).toBe(0);
    reader.observe("ses_a");
    await reader.getSession("ses_a");
    await reader.close!();
    expect(store.closed()).toBe(1);
  });
});
