import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lowerBound } from "./lower-bound.ts";

describe("lowerBound", () => {
  it("finds the first item whose key is not below the target, as a linear scan does", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 60 }), fc.integer({ min: -2, max: 32 }), (keys, target) => {
        const sorted = [...keys].sort((a, b) => a - b);
        const expected = sorted.findIndex((key) => key >= target);
        expect(lowerBound(sorted.length, (i) => sorted[i]! < target)).toBe(expected < 0 ? sorted.length : expected);
      }),
      { numRuns: 500 },
    );
  });

  it("compares string keys in code-unit order", () => {
    const ids = ["msg_01", "msg_03", "msg_03", "msg_10"];
    expect(lowerBound(ids.length, (i) => ids[i]! < "msg_03")).toBe(1);
    expect(lowerBound(ids.length, (i) => ids[i]! < "msg_04")).toBe(3);
    expect(lowerBound(ids.length, (i) => ids[i]! < "msg_99")).toBe(4);
  });
});
