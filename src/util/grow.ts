// Typed arrays grown by doubling: the index's postings, columns, term table and token spans, and
// the projection's term counts, posting lists and blobs all append to arrays whose final size they do not know.

type Growable = Int32Array | Uint32Array | Uint16Array | Uint8Array | Float64Array;

/** A copy of `array` in a new one of its kind with room for `need` elements: twice its length, or more. */
export function grown<T extends Growable>(array: T, need: number): T {
  let size = Math.max(1, array.length * 2);
  while (size < need) size *= 2;
  const copy = new (array.constructor as new (length: number) => T)(size);
  copy.set(array);
  return copy;
}
