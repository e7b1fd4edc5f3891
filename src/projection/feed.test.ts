import { describe, expect, it } from "vitest";
import type { HistoryReader } from "../store/reader.ts";
import { readerFeed } from "./feed.ts";
import { stampWatermark } from "./testing/stamp-watermark.ts";

const decode = { message: () => undefined, session: () => undefined };

function reader(marks: Partial<HistoryReader<unknown>> = {}): HistoryReader<unknown> {
  return {
    readAll: async () => [],
    readNewest: async () => [],
    readOne: async () => undefined,
    listSessions: async () => [],
    getSession: async () => undefined,
    ...marks,
  };
}

describe("the feed's watermark", () => {
  it("is the reader's, and the sessions changed since a mark are the reader's", async () => {
    const asked: string[] = [];
    const feed = readerFeed(
      reader({
        watermark: async () => "mark 2",
        sessionsChangedSince: async (mark) => {
          asked.push(mark);
          return ["ses_a"];
        },
      }),
      decode,
    );
    expect(await feed.watermark()).toBe("mark 2");
    expect(await feed.changedSince("mark 1")).toEqual(["ses_a"]);
    expect(asked).toEqual(["mark 1"]);
  });

  it("is undefined over a reader without one (the SDK alone)", async () => {
    const feed = readerFeed(reader(), decode);
    expect(await feed.watermark()).toBeUndefined();
    expect(await feed.changedSince("mark 1")).toBeUndefined();
  });

  it("of a stand-in store moves with any session's stamp and names the sessions whose stamp moved", async () => {
    const stamps = new Map([
      ["ses_a", 1],
      ["ses_b", 1],
    ]);
    const feed = stampWatermark(stamps);
    const first = await feed.watermark();
    expect([await feed.watermark(), await feed.changedSince(first!)]).toEqual([first, []]);
    stamps.set("ses_b", 2);
    stamps.set("ses_c", 1);
    expect(await feed.watermark()).not.toBe(first);
    expect(await feed.changedSince(first!)).toEqual(["ses_b", "ses_c"]);
    stamps.delete("ses_a");
    expect(await feed.changedSince(first!)).toBeUndefined();
    expect(await feed.changedSince("not a mark")).toBeUndefined();
  });
});
