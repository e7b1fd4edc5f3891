// One term's postings in one segment as a blob. Per session holding the term: its number (the gap
// from the previous one), the documents (chunks) holding the term, the term's reach in the session
// (search/many/session-terms.ts), then per such chunk its place in the session (the gap from the
// previous one) and the term's weighted frequency there; every value an unsigned LEB128 varint.
// A session's posting is then a few bytes, and its chunks two more each.

/**
 * Flat postings [number, df, reach, chunk, tf, … (df pairs), number, …], numbers ascending: a
 * posting is POSTING_HEAD values and then 2 × df.
 */
const POSTING_HEAD = 3;

/** Values the posting at `at` of flat postings spans. */
export function postingSpan(flat: readonly number[], at: number): number {
  return POSTING_HEAD + 2 * flat[at + 1]!;
}

/** Encodes flat postings (see POSTING_HEAD); numbers must be ascending, and a posting's chunks. */
export function encodePostings(flat: readonly number[]): Uint8Array {
  let out = new Uint8Array(flat.length * 3 + 16);
  let at = 0;
  const put = (value: number) => {
    if (at + 8 > out.length) {
      const grown = new Uint8Array(out.length * 2);
      grown.set(out);
      out = grown;
    }
    while (value >= 0x80) {
      out[at++] = (value & 0x7f) | 0x80;
      value = Math.floor(value / 0x80);
    }
    out[at++] = value;
  };
  let previous = 0;
  for (let i = 0; i < flat.length; i += postingSpan(flat, i)) {
    const no = flat[i]!;
    if (no < previous) throw new Error(`postings out of order: ${no} after ${previous}`);
    const df = flat[i + 1]!;
    put(no - previous);
    put(df);
    put(flat[i + 2]!);
    let chunk = 0;
    for (let c = 0; c < df; c++) {
      const next = flat[i + POSTING_HEAD + 2 * c]!;
      if (next < chunk) throw new Error(`chunks out of order: ${next} after ${chunk}`);
      put(next - chunk);
      put(flat[i + POSTING_HEAD + 2 * c + 1]!);
      chunk = next;
    }
    previous = no;
  }
  return out.slice(0, at);
}

/**
 * Calls visit(number, df, reach, chunks) for every posting of a blob, in order; `chunks` holds the
 * posting's [chunk, tf, …] pairs and is reused by the next posting (copy what is kept).
 */
export function decodePostings(blob: Uint8Array, visit: (no: number, df: number, reach: number, chunks: readonly number[]) => void): void {
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
  const chunks: number[] = [];
  while (at < blob.length) {
    previous += take();
    const df = take();
    const reach = take();
    chunks.length = 0;
    let chunk = 0;
    for (let c = 0; c < df; c++) {
      chunk += take();
      chunks.push(chunk, take());
    }
    visit(previous, df, reach, chunks);
  }
}
