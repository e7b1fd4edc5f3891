// One term's postings in one segment as a blob: (session number, documents holding the term, the
// term's reach in the session: search/projection/session-terms.ts) triples, numbers ascending, each
// triple three unsigned LEB128 varints, the number as the gap from the previous one. A posting is
// then four or five bytes instead of a row of its own.

/** Values a posting holds: number, df, reach. */
export const POSTING_STRIDE = 3;

/** Encodes flat [number, df, reach, number, …] triples; numbers must be ascending. */
export function encodePostings(pairs: readonly number[]): Uint8Array {
  const out = new Uint8Array(pairs.length * 5);
  let at = 0;
  let previous = 0;
  const put = (value: number) => {
    while (value >= 0x80) {
      out[at++] = (value & 0x7f) | 0x80;
      value = Math.floor(value / 0x80);
    }
    out[at++] = value;
  };
  for (let i = 0; i < pairs.length; i += POSTING_STRIDE) {
    const no = pairs[i]!;
    if (no < previous) throw new Error(`postings out of order: ${no} after ${previous}`);
    put(no - previous);
    put(pairs[i + 1]!);
    put(pairs[i + 2]!);
    previous = no;
  }
  return out.slice(0, at);
}

/** Calls visit(number, df, reach) for every posting of a blob, in order. */
export function decodePostings(blob: Uint8Array, visit: (no: number, df: number, reach: number) => void): void {
  let at = 0;
  let previous = 0;
  const take = () => {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = blob[at++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  };
  while (at < blob.length) {
    previous += take();
    const df = take();
    visit(previous, df, take());
  }
}
