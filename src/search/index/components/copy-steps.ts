// Shrinking a typed array means copying it, and a copy writes fresh memory: on some machines the
// page faults alone cost milliseconds per MB, so a 30 MB session's index cannot be trimmed in one
// synchronous block. These copies run a bounded piece at a time; the caller pauses between pieces.

type Packed = Int32Array | Uint32Array | Uint16Array | Uint8Array;

/** Elements copied per piece: 256 KB of 32-bit elements (about a millisecond, page faults included). */
export const COPY_PIECE = 1 << 16;

/** Length a trimmed array keeps for `used` elements: an eighth more (at least `min`), so the next appends do not regrow it at once. */
export function trimmedLength(used: number, min: number): number {
  return used + Math.max(min, used >>> 3);
}

/** A copy of `array[0, length)`, made one piece per step; the array itself when it is not longer than that. */
export function* copyPrefix<T extends Packed>(array: T, length: number): Generator<void, T> {
  if (length >= array.length) return array;
  const copy = new (array.constructor as new (length: number) => T)(length);
  for (let at = 0; at < length; at += COPY_PIECE) {
    if (at > 0) yield;
    copy.set(array.subarray(at, Math.min(length, at + COPY_PIECE)) as ArrayLike<number>, at);
  }
  return copy;
}
