import { describe, expect, it } from "vitest";
import { nextPartsMessages, PARTS_BYTES } from "./sqlite-reader.ts";

describe("nextPartsMessages (messages per parts query of a whole-session read)", () => {
  it("scales the count to the bytes the last query fetched", () => {
    expect(nextPartsMessages(64, PARTS_BYTES * 4)).toBe(16);
    expect(nextPartsMessages(64, PARTS_BYTES)).toBe(64);
  });

  it("grows at most twofold per query, up to 256, and never below one message", () => {
    expect(nextPartsMessages(8, 100)).toBe(16);
    expect(nextPartsMessages(200, 100)).toBe(256);
    expect(nextPartsMessages(1, 50 * PARTS_BYTES)).toBe(1);
    expect(nextPartsMessages(4, 0)).toBe(8);
  });
});
