// Tokens of indexed text. One definition serves the index, the cold scan, ranking and snippets,
// so all agree on what a "term" is:
// - a word is a maximal run of letters/digits (underscore, dot, slash, dash separate words),
//   so identifiers and paths are found by their segments and file names;
// - a word with camelCase humps is kept whole and also split into its humps;
// - a dotted number (3.6.9, 127.0.0.1) is a term whole and by its parts;
// - a number is a term at any length; other words shorter than 2 or longer than MAX_TOKEN
//   code units are not terms; a number matches only itself (30 is not 309, 0.337 is not 0.33744);
// - CJK runs (Han, Kana, Hangul) give overlapping bigrams and single characters.
// How a query becomes terms, and where a query's term occurs in a text, is query.ts.

import { CJK, DIGIT, LOWER, SEP, UPPER, charClass, fold } from "./normalize.ts";
import { grown } from "../../util/grow.ts";

export const MIN_TOKEN = 2;
export const MAX_TOKEN = 48;

/** True when a camelCase hump starts at `k` (0 < k < end) of a word in `text`. */
export function humpAt(text: string, k: number, end: number): boolean {
  const cur = charClass(text.charCodeAt(k));
  if (cur !== UPPER) return false;
  const prev = charClass(text.charCodeAt(k - 1));
  if (prev === LOWER || prev === DIGIT) return true;
  if (prev === UPPER && k + 1 < end) return charClass(text.charCodeAt(k + 1)) === LOWER;
  return false;
}

/** Token boundaries as [start, end) pairs of code-unit offsets, reused across documents. */
export class TokenSpans {
  data = new Int32Array(2048);
  /** Number of int32 values used (two per token). */
  size = 0;

  push(start: number, end: number): void {
    if (this.size + 2 > this.data.length) this.data = grown(this.data, this.size + 2);
    this.data[this.size++] = start;
    this.data[this.size++] = end;
  }
}

function isDigits(text: string, start: number, end: number): boolean {
  for (let k = start; k < end; k++) if (charClass(text.charCodeAt(k)) !== DIGIT) return false;
  return true;
}

/** End of the run of letters and digits that starts at `i`. */
export function runEnd(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length) {
    const c = charClass(text.charCodeAt(j));
    if (c === SEP || c === CJK) break;
    j++;
  }
  return j;
}

/** End of the dotted number (digit runs joined by single dots) starting with the run [i, j); j if none. */
export function dottedEnd(text: string, i: number, j: number): number {
  if (!isDigits(text, i, j)) return j;
  let end = j;
  while (end + 1 < text.length && text.charCodeAt(end) === 0x2e && charClass(text.charCodeAt(end + 1)) === DIGIT) {
    const next = runEnd(text, end + 1);
    if (!isDigits(text, end + 1, next)) break;
    end = next;
  }
  return end;
}

function pushWord(spans: TokenSpans, text: string, start: number, end: number): void {
  const length = end - start;
  const min = isDigits(text, start, end) ? 1 : MIN_TOKEN;
  if (length <= MAX_TOKEN && length >= min) spans.push(start, end);
  let partStart = start;
  let split = false;
  for (let k = start + 1; k < end; k++) {
    if (!humpAt(text, k, end)) continue;
    split = true;
    const partLength = k - partStart;
    if (partLength >= MIN_TOKEN && partLength <= MAX_TOKEN) spans.push(partStart, k);
    partStart = k;
  }
  if (split) {
    const partLength = end - partStart;
    if (partLength >= MIN_TOKEN && partLength <= MAX_TOKEN) spans.push(partStart, end);
  }
}

/** The terms of the word (or dotted number) [i, end): the whole first, then its parts. */
export function pushTerms(spans: TokenSpans, text: string, i: number, j: number, end: number): void {
  if (end === j) {
    pushWord(spans, text, i, j);
    return;
  }
  if (end - i <= MAX_TOKEN) spans.push(i, end);
  for (let k = i; k < end; ) {
    const next = runEnd(text, k);
    pushWord(spans, text, k, next);
    k = next + 1;
  }
}

/**
 * Every term occurrence of `text` as spans (offsets into the text and its fold, which have the
 * same length), in order, duplicates kept. No strings are made: the index reads the folded text.
 */
export function tokenSpans(text: string, spans: TokenSpans): void {
  spans.size = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const cls = charClass(text.charCodeAt(i));
    if (cls === SEP) {
      i++;
      continue;
    }
    let j = i + 1;
    if (cls === CJK) {
      while (j < n && charClass(text.charCodeAt(j)) === CJK) j++;
      for (let k = i; k < j; k++) {
        spans.push(k, k + 1);
        if (k + 1 < j) spans.push(k, k + 2);
      }
    } else {
      // One pass finds the word's end and whether it is all digits (maybe a dotted number) or has
      // a capital (maybe humps): a word that is neither, most words, is one term as it stands.
      let digits = cls === DIGIT;
      let upper = false;
      for (; j < n; j++) {
        const c = charClass(text.charCodeAt(j));
        if (c === SEP || c === CJK) break;
        if (c !== DIGIT) {
          digits = false;
          if (c === UPPER) upper = true;
        }
      }
      if (digits) {
        const end = dottedEnd(text, i, j);
        pushTerms(spans, text, i, j, end);
        j = end;
      } else if (upper) pushWord(spans, text, i, j);
      else if (j - i >= MIN_TOKEN && j - i <= MAX_TOKEN) spans.push(i, j);
    }
    i = j;
  }
}

/** Every term occurrence of `text`, in order, duplicates kept (term frequency). */
export function tokenize(text: string, folded: string = fold(text)): string[] {
  const spans = new TokenSpans();
  tokenSpans(text, spans);
  const tokens: string[] = [];
  for (let i = 0; i < spans.size; i += 2) tokens.push(folded.slice(spans.data[i]!, spans.data[i + 1]!));
  return tokens;
}

/** Whether text[index] is a letter or a digit. */
export function isWordChar(text: string, index: number): boolean {
  const cls = charClass(text.charCodeAt(index));
  return cls === LOWER || cls === UPPER || cls === DIGIT;
}

function isDigitAt(text: string, index: number): boolean {
  return index >= 0 && index < text.length && charClass(text.charCodeAt(index)) === DIGIT;
}

function hasDot(text: string, start: number, end: number): boolean {
  for (let k = start; k < end; k++) if (text.charCodeAt(k) === 0x2e) return true;
  return false;
}

export function isTermAt(text: string, start: number, end: number): boolean {
  const wordStart = start === 0 || !isWordChar(text, start - 1);
  const wordEnd = end === text.length || !isWordChar(text, end);
  // Inside a word, a term starts and ends only at a hump, an upper-case letter: most occurrences
  // found inside words (`rate` in `generate`) are ruled out here, before the word's end is read.
  if (!wordStart && charClass(text.charCodeAt(start)) !== UPPER) return false;
  if (!wordEnd && charClass(text.charCodeAt(end)) !== UPPER) return false;
  // A dotted number is a term only whole: 3.6 is not a term of 3.6.9, nor 6.9.
  if (hasDot(text, start, end)) {
    if (text.charCodeAt(start - 1) === 0x2e && isDigitAt(text, start - 2)) return false;
    if (text.charCodeAt(end) === 0x2e && isDigitAt(text, end + 1)) return false;
  }
  if (wordStart && wordEnd) return true;
  // One camelCase hump: starts at a word start or a hump, ends at a word end or a hump,
  // no hump inside.
  const we = wordEnd ? end : wordEndOf(text, end);
  if (!wordStart && !humpAt(text, start, we)) return false;
  if (!wordEnd && !humpAt(text, end, we)) return false;
  for (let k = start + 1; k < end; k++) if (humpAt(text, k, we)) return false;
  return true;
}

function wordEndOf(text: string, from: number): number {
  let k = from;
  while (k < text.length && isWordChar(text, k)) k++;
  return k;
}
