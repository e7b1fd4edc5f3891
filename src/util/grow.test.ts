import { describe, expect, it } from "vitest";
import { grown } from "./grow.ts";

describe("grown", () => {
  it("doubles, keeps the values and the kind", () => {
    const from = Int32Array.of(3, -1, 7);
    const to = grown(from, 4);
    expect(to).toBeInstanceOf(Int32Array);
    expect(to.length).toBe(6);
    expect([...to.subarray(0, 3)]).toEqual([3, -1, 7]);
    expect([...to.subarray(3)]).toEqual([0, 0, 0]);
    expect(from.length).toBe(3);
  });

  it("doubles until the need fits, for every kind used", () => {
    expect(grown(new Uint16Array(2), 9).length).toBe(16);
    expect(grown(new Uint32Array(5), 11).length).toBe(20);
    expect(grown(new Uint8Array(3), 4)).toBeInstanceOf(Uint8Array);
    const f = grown(Float64Array.of(0.5), 3);
    expect(f).toBeInstanceOf(Float64Array);
    expect([...f]).toEqual([0.5, 0, 0, 0]);
  });

  it("grows an empty array", () => {
    expect(grown(new Int32Array(0), 1).length).toBe(1);
    expect(grown(new Int32Array(0), 5).length).toBe(8);
  });
});
