import { describe, expect, it } from "vitest";
import { seededRandom } from "../util/testing/seeded-random.ts";
import { decodePostings, encodePostings } from "./postings-blob.ts";

const decoded = (blob: Uint8Array): number[] => {
  const out: number[] = [];
  decodePostings(blob, (no, df, reach, chunks) => out.push(no, df, reach, ...chunks));
  return out;
};

/** A posting of `df` chunks from `random`: ascending places, frequencies from 1. */
function posting(random: () => number, no: number, df: number, reach: number): number[] {
  const out = [no, df, reach];
  let chunk = 0;
  for (let c = 0; c < df; c++) out.push((chunk += Math.floor(random() * (c % 9 === 0 ? 70_000 : 4))), 1 + Math.floor(random() * 300));
  return out;
}

describe("postings blob", () => {
  it("gives back the postings and chunks it was given, numbers past 32 bits included", () => {
    const random = seededRandom(24);
    const flat: number[] = [];
    let no = 0;
    for (let i = 0; i < 500; i++) {
      no += 1 + Math.floor(random() * (i % 50 === 0 ? 2 ** 36 : 300));
      flat.push(...posting(random, no, 1 + Math.floor(random() * (i % 7 === 0 ? 2_000 : 5)), 1 + Math.floor(random() * 4096)));
    }
    expect(decoded(encodePostings(flat))).toEqual(flat);
  });

  it("takes a few bytes a posting and two a chunk when numbers are close", () => {
    const flat = Array.from({ length: 1000 }, (_, i) => [3 + i * 3, 1, 100 + (i % 20), i % 50, 1 + (i % 4)]).flat();
    const blob = encodePostings(flat);
    expect(blob.length).toBe(5000);
    expect(decoded(blob)).toEqual(flat);
  });

  it("encodes nothing as an empty blob, and refuses numbers or chunks out of order", () => {
    expect(decoded(encodePostings([]))).toEqual([]);
    expect(() => encodePostings([5, 1, 1, 0, 1, 4, 1, 1, 0, 1])).toThrow(/out of order/);
    expect(() => encodePostings([5, 2, 1, 3, 1, 2, 1])).toThrow(/out of order/);
  });
});
