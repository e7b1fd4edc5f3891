import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BinaryHeap } from "./binary-heap.ts";

describe("BinaryHeap", () => {
  it("gives items back in the order a sort gives them, pushes and pops interleaved", () => {
    // Ties are told apart by the second field, so the order expected is unique.
    const op = fc.oneof(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.nat()), fc.constant("pop" as const));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const compare = (a: [number, number], b: [number, number]) => a[0] - b[0] || a[1] - b[1];
        const heap = new BinaryHeap(compare);
        const reference: Array<[number, number]> = [];
        ops.forEach((step, i) => {
          if (step === "pop") {
            reference.sort(compare);
            expect(heap.peek()).toEqual(reference[0]);
            expect(heap.pop()).toEqual(reference.shift());
          } else {
            heap.push([step[0], i]);
            reference.push([step[0], i]);
          }
          expect(heap.size).toBe(reference.length);
        });
      }),
      { numRuns: 500 },
    );
  });
});
