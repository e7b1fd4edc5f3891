// BM25 over documents (part chunks), shared by the cold scan and the index so both rank alike.
// Document length is counted in UTF-16 code units: the scan knows it without tokenizing.

export const K1 = 1.2;
export const B = 0.75;

export function idf(docs: number, df: number): number {
  return Math.log(1 + (docs - df + 0.5) / (df + 0.5));
}

export function termScore(tf: number, idfValue: number, length: number, avgLength: number): number {
  const norm = K1 * (1 - B + (B * length) / (avgLength || 1));
  return (idfValue * tf * (K1 + 1)) / (tf + norm);
}

/** Query words covered by a document scale its score: all words ×1, half of them ×0.7. */
export function coverageFactor(groupsMatched: number, groups: number): number {
  if (groups <= 1) return 1;
  return 0.4 + 0.6 * (groupsMatched / groups);
}

export function popcount(mask: number): number {
  let m = mask - ((mask >>> 1) & 0x55555555);
  m = (m & 0x33333333) + ((m >>> 2) & 0x33333333);
  return (((m + (m >>> 4)) & 0xf0f0f0f) * 0x1010101) >>> 24;
}

/** Bit of a query word in a coverage mask (words past 31 share the last bit). */
export function groupBit(group: number): number {
  return 1 << Math.min(group, 31);
}
