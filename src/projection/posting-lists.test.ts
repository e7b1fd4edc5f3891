import { TERM_CHUNK_STRIDE } from "../search/projection-contract.ts";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PostingLists } from "./posting-lists.ts";
import { decodeChunks, decodeHeads } from "./postings-blob.ts";

const decoded = (blob: Uint8Array): number[] => {
  const out: number[] = [];
  decodeHeads(blob, (no, df, ceiling, chunksAt) => out.push(no, df, ceiling, ...decodeChunks(blob, chunksAt, df)));
  return out;
};

describe("posting lists", () => {
  it("keeps per term the postings appended, across blocks, as a segment's blob reads them", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom("a", "bb", "ccc", "common"),
            fc.array(fc.tuple(fc.nat(5), fc.integer({ min: 1, max: 2 ** 20 }), fc.nat(70_000), fc.nat(2)), { maxLength: 40 }),
          ),
          {
            maxLength: 200,
          },
        ),
        (adds) => {
          const lists = new PostingLists();
          const expected = new Map<string, number[]>();
          adds.forEach(([term, gaps], place) => {
            let chunk = 0;
            let message = 0;
            const chunks = gaps.flatMap(([gap, tf, length, step]) => [(chunk += gap), tf, length, (message += step)]);
            const ceiling = place / 8;
            lists.add(term, place, chunks, ceiling);
            const df = chunks.length / TERM_CHUNK_STRIDE;
            expected.get(term)?.push(place, df, ceiling, ...chunks) ?? expected.set(term, [place, df, ceiling, ...chunks]);
          });
          const got = new Map([...lists.entries()].map(([term, bytes]) => [term, decoded(bytes)]));
          expect(got).toEqual(expected);
          expect([...got.keys()]).toEqual([...expected.keys()].sort());
          lists.clear();
          expect(lists.size).toBe(0);
          expect([...lists.entries()]).toEqual([]);
        },
      ),
    );
  });
});
