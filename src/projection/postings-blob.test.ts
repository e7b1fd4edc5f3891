import { describe, expect, it } from "vitest";
import { seededRandom } from "../util/testing/seeded-random.ts";
import { decodePostings, encodePostings } from "./postings-blob.ts";

const decoded = (blob: Uint8Array): number[] => {
  const out: number[] = [];
  decodePostings(blob, (no, df, reach) => out.push(no, df, reach));
  return out;
};

describe("postings blob", () => {
  it("gives back the triples it was given, numbers past 32 bits included", () => {
    const random = seededRandom(24);
    const pairs: number[] = [];
    let no = 0;
    for (let i = 0; i < 500; i++) {
      no += 1 + Math.floor(random() * (i % 50 === 0 ? 2 ** 36 : 300));
      pairs.push(no, 1 + Math.floor(random() * (i % 7 === 0 ? 100_000 : 5)), 1 + Math.floor(random() * 4096));
    }
    expect(decoded(encodePostings(pairs))).toEqual(pairs);
  });

  it("takes a few bytes a posting when numbers are close", () => {
    const pairs = Array.from({ length: 1000 }, (_, i) => [3 + i * 3, 1 + (i % 4), 100 + (i % 20)]).flat();
    const blob = encodePostings(pairs);
    expect(blob.length).toBe(3000);
    expect(decoded(blob)).toEqual(pairs);
  });

  it("encodes nothing as an empty blob, and refuses numbers out of order", () => {
    expect(decoded(encodePostings([]))).toEqual([]);
    expect(() => encodePostings([5, 1, 1, 4, 1, 1])).toThrow(/out of order/);
  });
});
