import { describe, expect, it } from "vitest";
import { TERM_CHUNK_STRIDE } from "../search/projection-contract.ts";
import { seededRandom } from "../util/testing/seeded-random.ts";
import { ByteWriter, CEILING_SCALE, decodeChunks, decodeDocuments, decodeHeads, PostingsWriter, scanPostings, writeBody } from "./postings-blob.ts";

const decoded = (blob: Uint8Array): number[] => {
  const out: number[] = [];
  decodeHeads(blob, (no, df, ceiling, chunksAt) => out.push(no, df, ceiling, ...decodeChunks(blob, chunksAt, df)));
  return out;
};

/** Flat postings [no, df, ceiling, chunk, tf, length, message, …] encoded as a segment holds them. */
function encoded(flat: readonly number[]): Uint8Array {
  const out = new PostingsWriter();
  const body = new ByteWriter();
  for (let i = 0; i < flat.length; i += 3 + TERM_CHUNK_STRIDE * flat[i + 1]!) {
    body.length = 0;
    writeBody(body, flat.slice(i + 3, i + 3 + TERM_CHUNK_STRIDE * flat[i + 1]!), flat[i + 2]!);
    out.add(flat[i]!, body.bytes, 0, body.length);
  }
  return out.take();
}

/** A posting of `df` chunks from `random`: ascending places, frequencies from 1, lengths, messages not descending. */
function posting(random: () => number, no: number, df: number): number[] {
  // Ceilings in whole 1/CEILING_SCALE: they come back as they went.
  const out = [no, df, Math.floor(random() * 40 * CEILING_SCALE) / CEILING_SCALE];
  let chunk = 0;
  let message = 0;
  for (let c = 0; c < df; c++) {
    const gap = Math.floor(random() * (c % 9 === 0 ? 70_000 : 4));
    out.push((chunk += gap), 1 + Math.floor(random() * 300), Math.floor(random() * 5_000), (message += gap === 0 ? 0 : Math.floor(random() * 3)));
  }
  return out;
}

describe("postings blob", () => {
  it("gives back the postings and chunks it was given, numbers past 32 bits included", () => {
    const random = seededRandom(24);
    const flat: number[] = [];
    let no = 0;
    for (let i = 0; i < 500; i++) {
      no += 1 + Math.floor(random() * (i % 50 === 0 ? 2 ** 36 : 300));
      flat.push(...posting(random, no, 1 + Math.floor(random() * (i % 7 === 0 ? 2_000 : 5))));
    }
    expect(decoded(encoded(flat))).toEqual(flat);
  });

  it("takes a few bytes a posting and four a chunk when numbers are close", () => {
    const flat = Array.from({ length: 1000 }, (_, i) => [3 + i * 3, 1, 0.0625, i % 50, 1 + (i % 4), 100, i % 7]).flat();
    const blob = encoded(flat);
    expect(blob.length).toBe(8000);
    expect(decoded(blob)).toEqual(flat);
  });

  it("stores a ceiling rounded up, never below what it was given, and refuses one below 0", () => {
    for (const ceiling of [0, 1e-9, 0.3, 2 / 3, 7.77777, 123.456789]) {
      const [, , stored] = decoded(encoded([1, 1, ceiling, 0, 1, 10, 0]));
      expect(stored).toBeGreaterThanOrEqual(ceiling);
      expect(stored! - ceiling).toBeLessThan(1 / CEILING_SCALE);
    }
    expect(() => encoded([1, 1, -0.5, 0, 1, 10, 0])).toThrow(/ceiling/);
    expect(() => encoded([1, 1, Number.NaN, 0, 1, 10, 0])).toThrow(/ceiling/);
  });

  it("scans each posting's body without decoding it, and refuses numbers or chunks out of order", () => {
    const blob = encoded([5, 1, 0.5, 0, 1, 20, 0, 9, 2, 1, 3, 1, 20, 2, 200, 7, 30, 5]);
    const bodies: [number, number[]][] = [];
    scanPostings(blob, (no, start, end) => bodies.push([no, [...blob.subarray(start, end)]]));
    // df, the ceiling in 1/1024 (512 and 1024: two bytes each), the chunks' bytes, the chunks.
    expect(bodies).toEqual([
      [5, [1, 0x80, 4, 4, 0, 1, 20, 0]],
      [9, [2, 0x80, 8, 9, 3, 1, 20, 2, 197, 1, 7, 30, 3]],
    ]);
    const documents: number[] = [];
    decodeDocuments(blob, (no, df) => documents.push(no, df));
    expect(documents).toEqual([5, 1, 9, 2]);
    expect(decoded(encoded([]))).toEqual([]);
    expect(() => encoded([5, 1, 0, 0, 1, 9, 0, 4, 1, 0, 0, 1, 9, 0])).toThrow(/out of order/);
    expect(() => encoded([5, 2, 0, 3, 1, 9, 0, 2, 1, 9, 0])).toThrow(/out of order/);
    // A chunk's message before the previous chunk's.
    expect(() => encoded([5, 2, 0, 3, 1, 9, 4, 6, 1, 9, 2])).toThrow(/out of order/);
    // A blob cut inside a posting's chunks.
    expect(() => decoded(blob.subarray(0, blob.length - 3))).toThrow(/cut short/);
    expect(() => decodeDocuments(blob.subarray(0, blob.length - 3), () => {})).toThrow(/cut short/);
  });
});
