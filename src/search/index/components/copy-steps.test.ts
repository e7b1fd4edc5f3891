import { describe, expect, it } from "vitest";
import { COPY_PIECE, copyPrefix, trimmedLength } from "./copy-steps.ts";

describe("copyPrefix", () => {
  it("copies the prefix one piece per step, as the same kind of array", () => {
    const array = new Uint32Array(3 * COPY_PIECE + 5);
    for (let i = 0; i < array.length; i++) array[i] = (i * 2654435761) >>> 0;
    const length = 2 * COPY_PIECE + 7;
    const steps = copyPrefix(array, length);
    let pauses = 0;
    let next = steps.next();
    for (; !next.done; next = steps.next()) pauses++;
    const copy = next.value;
    expect(pauses).toBe(2);
    expect(copy).toBeInstanceOf(Uint32Array);
    expect(copy.length).toBe(length);
    expect(copy).toEqual(array.subarray(0, length));
    expect(copy.buffer).not.toBe(array.buffer);
  });

  it("keeps an array no longer than the prefix asked for, without a step", () => {
    const array = new Uint16Array([1, 2, 3]);
    const steps = copyPrefix(array, 5);
    const next = steps.next();
    expect(next).toEqual({ done: true, value: array });
  });

  it("leaves an eighth of headroom, at least the minimum", () => {
    expect(trimmedLength(8000, 64)).toBe(9000);
    expect(trimmedLength(100, 64)).toBe(164);
  });
});
