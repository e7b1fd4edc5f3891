// Typos, all of their logic: a query word that matches no term in any session searched is
// replaced by the nearest term those sessions hold — within one edit for words of 4 to 7 letters,
// two from 8 on (an edit is an insertion, deletion, substitution or swap of neighbours) — the most
// frequent one on a tie. A correction is a guess: its terms weigh less than the words the query
// holds as typed. The entry is typoCorrections (the words to correct, each session's candidates,
// the choice, the corrected query); each place that holds terms (a session's index, its text
// scanned cold) walks its own and lets a WordCorrection choose. The store's projection applies
// the same rules (maxEdits, isLetters, isNearer) to its vocabulary, through search/api.ts.

import { maybeYield, now } from "../../util/scheduler.ts";
import { fold } from "./normalize.ts";
import { type ParsedQuery, parseQuery } from "./query.ts";
import { TUNING } from "../tuning.ts";

// A corrected word keeps a share of its weight (tuning.ts's typos).

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
 * The correction of one query word among the terms of one collection (a session's index or text),
 * as its walk offers them: within maxEdits, the word's first letter kept (correctionDistance),
 * letters a–z only, the nearest by isNearer. The walk asks `edits` of each term, then offers the
 * ones it may win with (`mayWin` spares it making a term's text that cannot).
 */
export class WordCorrection {
  /** The lengths a correction may have. */
  readonly minLength: number;
  readonly maxLength: number;
  /** Edits a term may be away: maxEdits at first, then the best one's (a farther term cannot win). */
  private max: number;
  private best: NearestTerm | undefined;

  constructor(readonly word: string) {
    this.max = maxEdits(word.length);
    this.minLength = word.length - this.max;
    this.maxLength = word.length + this.max;
  }

  /**
   * Edits from the word to a term (its `length` character codes of `chars` from `start`, a–z
   * alone) that may correct it and be no farther than the best so far; undefined for any other.
   */
  edits(chars: ArrayLike<number>, start: number, length: number): number | undefined {
    const distance = correctionDistance(this.word, chars, start, length, this.max);
    return distance === 0 || distance > this.max ? undefined : distance;
  }

  /** `edits` of a term given as text, which may be of any letters (only a–z can correct). */
  editsTo(term: string): number | undefined {
    if (term.length < this.minLength || term.length > this.maxLength || term.charCodeAt(0) !== this.word.charCodeAt(0) || !isLetters(term)) return undefined;
    if (codes.length < term.length) codes = new Uint16Array(term.length * 2);
    for (let k = 0; k < term.length; k++) codes[k] = term.charCodeAt(k);
    return this.edits(codes, 0, term.length);
  }

  /** Whether a term `distance` edits away (edits' answer), in `df` documents, may beat the best so far. */
  mayWin(distance: number, df: number): boolean {
    const best = this.best;
    return !best || distance < best.distance || (distance === best.distance && df >= best.df);
  }

  offer(term: string, distance: number, df: number): void {
    const candidate = { term, distance, df };
    if (!isNearer(candidate, this.best)) return;
    this.best = candidate;
    this.max = distance;
  }

  /** The best term offered, with its distance and documents (project scope picks among sessions'). */
  get nearest(): NearestTerm | undefined {
    return this.best;
  }
}

/** A term's character codes for editsTo, reused: a cold lookup measures every term the scan saw. */
let codes = new Uint16Array(64);

/** Edits a word of this length may be away from its correction (0: never corrected). */
export function maxEdits(length: number): number {
  return length < 4 ? 0 : length < 8 ? 1 : 2;
}

/** Optimal-string-alignment distance of a and b, or max + 1 as soon as it must exceed `max`. */
export function editDistance(a: string, b: string, max: number): number {
  const codes = new Uint16Array(b.length);
  for (let k = 0; k < b.length; k++) codes[k] = b.charCodeAt(k);
  return boundedDistance(a, codes, 0, b.length, max);
}

// Three DP rows reused by every call: a typo lookup walks the whole term table, and allocating
// rows (or a string per term) there cost seconds on a 30 MB session.
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/**
 * editDistance of `a` and the `bLength` character codes of `b` from `bStart`, without making a
 * string of them (the index keeps its terms packed in one array).
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
 * word's weight cut to tuning.ts's typos.weight (its other forms with it; in a path or name, the
 * corrected word alone).
 */
export function correctQuery(query: string, corrections: ReadonlyMap<string, string>): { text: string; parsed: ParsedQuery } {
  const text = rewriteQuery(query, corrections);
  const parsed = parseQuery(text);
  const corrected = new Set(corrections.values());
  const compound = new Set(parsed.compounds.map((c) => c.group));
  const groups = new Set<number>();
  for (const term of parsed.terms) if (corrected.has(term.token) && !compound.has(term.group)) groups.add(term.group);
  const weight = TUNING.typos.weight;
  const terms = parsed.terms.map((term) => (corrected.has(term.token) || groups.has(term.group) ? { ...term, weight: term.weight * weight } : term));
  return { text, parsed: { ...parsed, terms } };
}

/** Where corrections are looked for: the sessions searched, and those the projection holds unread. */
export interface CorrectionSources {
  /**
   * Per session searched, its documents per query term (undefined when it has no counts: no
   * correction then) and its nearest term to each word (undefined past the deadline).
   */
  sessions: ReadonlyArray<{ df: readonly number[] | undefined; nearest?: (words: readonly string[]) => Promise<Map<string, NearestTerm> | undefined> }>;
  /** The projection's sessions left unread, and their nearest terms, each session's own. */
  unread?: { ids: readonly string[]; nearest(words: readonly string[], ids: readonly string[]): Promise<Map<string, NearestTerm[]>> };
}

/**
 * The one entry: the corrections of a query's words found in no session searched (a word found
 * anywhere is kept), each the nearest term of the sessions searched (bestNearest over their own
 * choices), and the query with them made (correctQuery); undefined when there is none. Each
 * session is asked in its own slice, until the deadline.
 */
export async function typoCorrections(
  query: { text: string; parsed: ParsedQuery },
  sources: CorrectionSources,
  deadline: number,
): Promise<{ corrections: Map<string, string>; query: { text: string; parsed: ParsedQuery } } | undefined> {
  const { sessions, unread } = sources;
  if ((sessions.length === 0 && !unread?.ids.length) || !TUNING.typos.on) return undefined;
  const df = query.parsed.terms.map(() => 0);
  for (const session of sessions) {
    if (!session.df) return undefined;
    session.df.forEach((count, t) => {
      df[t]! += count;
    });
  }
  const missing = unmatchedWords(query.parsed, df);
  if (missing.length === 0) return undefined;
  const candidates = new Map<string, NearestTerm[]>(missing.map((word) => [word, []]));
  for (const session of sessions) {
    if (!session.nearest) continue;
    await maybeYield();
    if (now() > deadline) break;
    const nearest = await session.nearest(missing);
    if (!nearest) break;
    for (const [word, term] of nearest) candidates.get(word)!.push(term);
  }
  if (unread && unread.ids.length > 0 && now() <= deadline) {
    for (const [word, terms] of await unread.nearest(missing, unread.ids)) candidates.get(word)?.push(...terms);
  }
  const corrections = new Map<string, string>();
  for (const [word, nearest] of candidates) {
    const term = bestNearest(nearest);
    if (term !== undefined) corrections.set(word, term);
  }
  return corrections.size > 0 ? { corrections, query: correctQuery(query.text, corrections) } : undefined;
}
