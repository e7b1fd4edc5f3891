import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { insertBest, insertBestScore, selectBest } from "./best.ts";

describe("selectBest", () => {
  it("equals a full sort cut to k", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 50 })), fc.integer({ min: 1, max: 20 }), (items, k) => {
        const compare = (a: number, b: number) => b - a;
        expect(selectBest(items, k, compare)).toEqual([...items].sort(compare).slice(0, k));
      }),
    );
  });
});

describe("insertBest", () => {
  it("keeps the k first items in order, an item after its equals (a stable sort cut to k)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 9 })), fc.integer({ min: 1, max: 12 }), (keys, k) => {
        const items = keys.map((key, i) => ({ key, i }));
        const compare = (a: { key: number }, b: { key: number }) => a.key - b.key;
        const best: typeof items = [];
        for (const item of items) insertBest(best, item, k, compare);
        expect(best).toEqual([...items].sort(compare).slice(0, k));
      }),
    );
  });
});

describe("insertBestScore", () => {
  it("keeps a run's k highest scores, highest first, in its slot of the array alone", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 9 })), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 3 }), (scores, k, slot) => {
        const list = new Float64Array(4 * k).fill(-1);
        let held = 0;
        for (const score of scores) held = insertBestScore(list, slot * k, held, k, score);
        const expected = [...scores].sort((a, b) => b - a).slice(0, k);
        expect(held).toBe(expected.length);
        expect([...list.subarray(slot * k, slot * k + held)]).toEqual(expected);
        // The other runs' slots are untouched.
        expect([...list].filter((value, i) => (i < slot * k || i >= (slot + 1) * k) && value !== -1)).toEqual([]);
      }),
    );
  });
});
