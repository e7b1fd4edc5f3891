// Typos: a query word that matches no term of a session is replaced by the nearest term the
// session's index holds — within one edit for words of 4 to 7 letters, two from 8 on (an edit is an
// insertion, deletion, substitution or swap of neighbours) — the most frequent one on a tie.

import { fold } from "./normalize.ts";
import type { ParsedQuery } from "./tokenize.ts";

/** Edits a word of this length may be away from its correction (0: never corrected). */
export function maxEdits(length: number): number {
  return length < 4 ? 0 : length < 8 ? 1 : 2;
}

/** Optimal-string-alignment distance of a and b, or max + 1 as soon as it must exceed `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prevPrev: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prevPrev[j - 2]! + 1);
      row.push(d);
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    prevPrev = prev;
    prev = row;
  }
  return prev[b.length]!;
}

const WORD = /^[a-z]+$/;

/** Query words worth correcting: letters only, 4+ long, none of their terms (parts, other forms) found (df 0). */
export function unmatchedWords(parsed: ParsedQuery, df: readonly number[]): string[] {
  const found = new Set<number>();
  parsed.terms.forEach((term, t) => {
    if ((df[t] ?? 0) > 0) found.add(term.group);
  });
  const words: string[] = [];
  const seen = new Set<number>();
  for (const term of parsed.terms) {
    if (seen.has(term.group) || found.has(term.group)) continue;
    seen.add(term.group);
    if (!term.cjk && maxEdits(term.token.length) > 0 && WORD.test(term.token)) words.push(term.token);
  }
  return words;
}

/** `query` with the first whole-word occurrence of each folded word replaced by its correction. */
export function rewriteQuery(query: string, corrections: ReadonlyMap<string, string>): string {
  let out = query;
  for (const [word, correction] of corrections) {
    const folded = fold(out);
    let at = folded.indexOf(word);
    while (at >= 0 && (/[\p{L}\p{N}]/u.test(folded[at - 1] ?? "") || /[\p{L}\p{N}]/u.test(folded[at + word.length] ?? ""))) at = folded.indexOf(word, at + 1);
    if (at >= 0) out = out.slice(0, at) + correction + out.slice(at + word.length);
  }
  return out;
}
