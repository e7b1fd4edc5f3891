// Typos, all of their logic: a query word that matches no term in any session searched is
// replaced by the nearest term those sessions hold — within one edit for words of 4 to 7 letters,
// two from 8 on (an edit is an insertion, deletion, substitution or swap of neighbours) — the most
// frequent one on a tie. A correction is a guess: its terms weigh less than the words the query
// holds as typed. The entry is typoCorrections (the words to correct, each place's nearest terms,
// the choice, the corrected query); each place that holds terms (a session's index, its text
// scanned cold, the store's projection through search/api.ts) gives them as a Vocabulary, and
// nearestTerms reads each alike.

import { maybeYield, now } from "../../util/scheduler.ts";
import { fold } from "./normalize.ts";
import { type ParsedQuery, parseQuery } from "./query.ts";
import type { SearchTuning } from "../tuning.ts";

// A corrected word keeps a share of its weight (the tuning's typos, tuning.ts).

/** An indexed term near a query word: how many edits away, in how many documents. */
export interface NearestTerm {
  term: string;
  distance: number;
  df: number;
}

/**
 * Whether `candidate` is a better correction than `best`: fewer edits, then more documents, then
 * the first in code-unit order, so neither the order terms were indexed in nor the order sessions
 * answered decides a tie.
 */
export function isNearer(candidate: NearestTerm, best: NearestTerm | undefined): boolean {
  if (!best) return true;
  if (candidate.distance !== best.distance) return candidate.distance < best.distance;
  if (candidate.df !== best.df) return candidate.df > best.df;
  return candidate.term < best.term;
}

/** The best of several sessions' nearest terms (isNearer), their documents summed per term. */
export function bestNearest(candidates: Iterable<NearestTerm>): string | undefined {
  const byTerm = new Map<string, NearestTerm>();
  for (const candidate of candidates) {
    const seen = byTerm.get(candidate.term);
    byTerm.set(candidate.term, seen ? { ...seen, df: seen.df + candidate.df } : candidate);
  }
  let best: NearestTerm | undefined;
  for (const candidate of byTerm.values()) if (isNearer(candidate, best)) best = candidate;
  return best?.term;
}

/**
 * The terms a collection holds, with their documents: what a typo is corrected from. A session's
 * index (SessionIndex.vocabulary), its text scanned (scan/vocabulary.ts) and the projection's
 * sessions (projection/finder.ts) each give one; nearestTerms reads them all alike.
 */
export interface Vocabulary {
  /**
   * Each term of letters a–z alone, `minLength` to `maxLength` long, starting with the code `first`
   * (it may visit more: nearestTerms measures each): its `length` character codes of `chars` from
   * `start` (no string is made per term), and its key.
   */
  forEachTerm(first: number, minLength: number, maxLength: number, visit: (chars: ArrayLike<number>, start: number, length: number, key: number) => void): void;
  text(key: number): string;
  /** Its documents in the collection (0: none live). */
  documents(key: number): number;
}

/**
 * Per word, the terms of the vocabulary nearest to it that some document holds (within maxEdits,
 * its first letter kept: correctionDistance), all of them at that distance, with their documents;
 * none for a word without one. Documents are counted and texts made at that distance only.
 */
export function nearestTerms(vocabulary: Vocabulary, words: readonly string[]): Map<string, NearestTerm[]> {
  const nearest = new Map<string, NearestTerm[]>();
  for (const word of words) {
    const max = maxEdits(word.length);
    const byDistance: number[][] = [];
    vocabulary.forEachTerm(word.charCodeAt(0), word.length - max, word.length + max, (chars, start, length, key) => {
      const distance = correctionDistance(word, chars, start, length, max);
      if (distance > 0 && distance <= max) (byDistance[distance] ??= []).push(key);
    });
    for (const [distance, keys] of byDistance.entries()) {
      const found = (keys ?? []).flatMap((key) => {
        const df = vocabulary.documents(key);
        return df > 0 ? [{ term: vocabulary.text(key), distance, df }] : [];
      });
      if (found.length === 0) continue;
      nearest.set(word, found);
      break;
    }
  }
  return nearest;
}

/** A vocabulary of terms given as text (any letters: only a–z ones are visited) and their documents. */
export function termListVocabulary(terms: readonly string[], documents: (key: number) => number): Vocabulary {
  let codes = new Uint16Array(64);
  return {
    forEachTerm(first, minLength, maxLength, visit) {
      terms.forEach((term, key) => {
        if (term.length < minLength || term.length > maxLength || term.charCodeAt(0) !== first || !isLetters(term)) return;
        if (codes.length < term.length) codes = new Uint16Array(term.length * 2);
        for (let k = 0; k < term.length; k++) codes[k] = term.charCodeAt(k);
        visit(codes, 0, term.length, key);
      });
    },
    text: (key) => terms[key]!,
    documents,
  };
}

/** Edits a word of this length may be away from its correction (0: never corrected). */
export function maxEdits(length: number): number {
  return length < 4 ? 0 : length < 8 ? 1 : 2;
}

// Three DP rows reused by every call: a typo lookup walks the whole term table, and allocating
// rows (or a string per term) there cost seconds on a 30 MB session.
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/**
 * Optimal-string-alignment distance of `a` and the `bLength` character codes of `b` from
 * `bStart`, or max + 1 as soon as it must exceed `max`, without making a string of them (the
 * index keeps its terms packed in one array).
 */
export function boundedDistance(a: string, b: ArrayLike<number>, bStart: number, bLength: number, max: number): number {
  if (Math.abs(a.length - bLength) > max) return max + 1;
  if (rows[0]!.length <= bLength) rows = rows.map(() => new Int32Array(bLength * 2 + 1));
  let [prevPrev, prev, row] = rows as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j <= bLength; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const ai = a.charCodeAt(i - 1);
    row[0] = i;
    let best = i;
    for (let j = 1; j <= bLength; j++) {
      const bj = b[bStart + j - 1]!;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b[bStart + j - 2] && a.charCodeAt(i - 2) === bj) d = Math.min(d, prevPrev[j - 2]! + 1);
      row[j] = d;
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    [prevPrev, prev, row] = [prev, row, prevPrev];
  }
  return Math.min(prev[bLength]!, max + 1);
}

/**
 * Edits from a query word to an indexed term that may correct it (the term's `length` character
 * codes from `start`), or max + 1 when it may not: a correction keeps the word's first letter.
 * People seldom mistype a word's first letter, while a short word one edit from another real word
 * at its start is a different word (`unit`/`init`, `hand`/`and`, `lack`/`back`), not a typo of it;
 * Lucene's spell checker requires the same (DirectSpellChecker's minPrefix of 1).
 */
export function correctionDistance(word: string, chars: ArrayLike<number>, start: number, length: number, max: number): number {
  if (length === 0 || chars[start] !== word.charCodeAt(0)) return max + 1;
  return boundedDistance(word, chars, start, length, max);
}

/** Whether `text` is lower-case letters a–z alone: the only words corrected, and the only terms a correction may be. */
export function isLetters(text: string): boolean {
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c < 97 || c > 122) return false;
  }
  return text.length > 0;
}

/**
 * Query words worth correcting: letters only, 4+ long, none of their terms (parts, other forms)
 * found (df 0). A path or snake_case name is one query word: each of its words found nowhere is
 * worth correcting on its own (`pytest_colect_file`). A word whose terms are only other forms is
 * one typed before in the query (`local` after `UnboundLocalError`): it is not a typo of its forms.
 */
export function unmatchedWords(parsed: ParsedQuery, df: readonly number[]): string[] {
  const found = new Set<number>();
  const typed = new Set<number>();
  parsed.terms.forEach((term, t) => {
    if ((df[t] ?? 0) > 0) found.add(term.group);
    if (!term.variant) typed.add(term.group);
  });
  const compound = new Set(parsed.compounds.map((c) => c.group));
  const words: string[] = [];
  const seen = new Set<number>();
  parsed.terms.forEach((term, t) => {
    const worth = !term.cjk && maxEdits(term.token.length) > 0 && isLetters(term.token);
    if (compound.has(term.group)) {
      if (worth && (df[t] ?? 0) === 0) words.push(term.token);
      return;
    }
    if (seen.has(term.group) || found.has(term.group) || !typed.has(term.group)) return;
    seen.add(term.group);
    if (worth) words.push(term.token);
  });
  return words;
}

const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;

/**
 * Whether text[k] is a letter or number (\p{L}, \p{N}; false outside the text). An ASCII one is
 * told by its code: the Unicode pattern, slow to compile in a fresh process, is for the others.
 */
export function isLetterOrNumberAt(text: string, k: number): boolean {
  if (k < 0 || k >= text.length) return false;
  const c = text.charCodeAt(k);
  if (c < 0x80) return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  return LETTER_OR_NUMBER.test(text[k]!);
}

/** `query` with the first whole-word occurrence of each folded word replaced by its correction. */
export function rewriteQuery(query: string, corrections: ReadonlyMap<string, string>): string {
  let out = query;
  for (const [word, correction] of corrections) {
    const folded = fold(out);
    let at = folded.indexOf(word);
    while (at >= 0 && (isLetterOrNumberAt(folded, at - 1) || isLetterOrNumberAt(folded, at + word.length))) at = folded.indexOf(word, at + 1);
    if (at >= 0) out = out.slice(0, at) + correction + out.slice(at + word.length);
  }
  return out;
}

/**
 * The query with its corrections made: the text as searched, and its terms with each corrected
 * word's weight cut to the tuning's typos.weight (its other forms with it; in a path or name, the
 * corrected word alone).
 */
export function correctQuery(query: string, corrections: ReadonlyMap<string, string>, tuning: SearchTuning): { text: string; parsed: ParsedQuery } {
  const text = rewriteQuery(query, corrections);
  const parsed = parseQuery(text, tuning);
  const corrected = new Set(corrections.values());
  const compound = new Set(parsed.compounds.map((c) => c.group));
  const groups = new Set<number>();
  for (const term of parsed.terms) if (corrected.has(term.token) && !compound.has(term.group)) groups.add(term.group);
  const weight = tuning.typos.weight;
  const terms = parsed.terms.map((term) => (corrected.has(term.token) || groups.has(term.group) ? { ...term, weight: term.weight * weight } : term));
  return { text, parsed: { ...parsed, terms } };
}

/** Where corrections are looked for: the sessions searched, and those the projection holds unread. */
export interface CorrectionSources {
  /** Per session searched, its documents per query term (undefined when it has no counts: no correction then). */
  df: ReadonlyArray<readonly number[] | undefined>;
  /** Each place's nearest terms to the words (nearestTerms over its vocabulary); undefined past the deadline. */
  nearest: ReadonlyArray<(words: readonly string[]) => Promise<Map<string, NearestTerm[]> | undefined>>;
}

/**
 * The one entry: the corrections of a query's words found in no session searched (a word found
 * anywhere is kept), each the nearest term of all the places asked (bestNearest, their documents
 * summed), and the query with them made (correctQuery); undefined when there is none. Each place
 * is asked in its own slice, until the deadline.
 */
export async function typoCorrections(
  query: { text: string; parsed: ParsedQuery },
  sources: CorrectionSources,
  deadline: number,
): Promise<{ corrections: Map<string, string>; query: { text: string; parsed: ParsedQuery } } | undefined> {
  if (sources.nearest.length === 0 || !query.parsed.tuning.typos.on) return undefined;
  const df = query.parsed.terms.map(() => 0);
  for (const counts of sources.df) {
    if (!counts) return undefined;
    counts.forEach((count, t) => {
      df[t]! += count;
    });
  }
  const missing = unmatchedWords(query.parsed, df);
  if (missing.length === 0) return undefined;
  const candidates = new Map<string, NearestTerm[]>(missing.map((word) => [word, []]));
  for (const place of sources.nearest) {
    await maybeYield();
    if (now() > deadline) break;
    const nearest = await place(missing);
    if (!nearest) break;
    for (const [word, terms] of nearest) candidates.get(word)?.push(...terms);
  }
  const corrections = new Map<string, string>();
  for (const [word, nearest] of candidates) {
    const term = bestNearest(nearest);
    if (term !== undefined) corrections.set(word, term);
  }
  return corrections.size > 0 ? { corrections, query: correctQuery(query.text, corrections, query.parsed.tuning) } : undefined;
}
