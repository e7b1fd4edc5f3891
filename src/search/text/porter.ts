// Porter's English stemmer for lower-case a–z words, as @orama/stemmers 3.1.18 computes it
// (porter.test.ts holds the two to the same output), written with character tests: that one
// builds a dozen RegExps from strings and runs about fifteen on every call, most of a fresh
// process's first query parse. Its quirks are kept, since stems decide which forms a query
// matches: step 4 strips -sion/-tion with the s or t (adoption → adop), and a longest ending
// whose stem fails the measure test is not retried as a shorter one (rational stays rational).

const STEP2: ReadonlyArray<readonly [string, string]> = [
  ["ational", "ate"],
  ["tional", "tion"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["izer", "ize"],
  ["bli", "ble"],
  ["alli", "al"],
  ["entli", "ent"],
  ["eli", "e"],
  ["ousli", "ous"],
  ["ization", "ize"],
  ["ation", "ate"],
  ["ator", "ate"],
  ["alism", "al"],
  ["iveness", "ive"],
  ["fulness", "ful"],
  ["ousness", "ous"],
  ["aliti", "al"],
  ["iviti", "ive"],
  ["biliti", "ble"],
  ["logi", "log"],
];
const STEP3: ReadonlyArray<readonly [string, string]> = [
  ["icate", "ic"],
  ["ative", ""],
  ["alize", "al"],
  ["iciti", "ic"],
  ["ical", "ic"],
  ["ful", ""],
  ["ness", ""],
];
const STEP4 = ["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ou", "ism", "ate", "iti", "ous", "ive", "ize"];

/** a e i o u (y is a vowel only after a consonant). */
function isAeiou(code: number): boolean {
  return code === 97 || code === 101 || code === 105 || code === 111 || code === 117;
}

const Y = 121;

/**
 * Porter's measure of word[0, end), counted to `cap`: how many vowel runs a consonant follows. A y
 * is a consonant first in the word or after a vowel, else a vowel.
 */
function measure(word: string, end: number, cap: number): number {
  let m = 0;
  let vowel = false;
  for (let k = 0; k < end; k++) {
    const code = word.charCodeAt(k);
    const isVowel: boolean = isAeiou(code) || (code === Y && k > 0 && !vowel);
    if (vowel && !isVowel && ++m >= cap) return m;
    vowel = isVowel;
  }
  return m;
}

/** Whether word[0, end) holds a vowel (a y after the first letter counts). */
function hasVowel(word: string, end: number): boolean {
  if (end > 0 && isAeiou(word.charCodeAt(0))) return true;
  for (let k = 1; k < end; k++) {
    const code = word.charCodeAt(k);
    if (isAeiou(code) || code === Y) return true;
  }
  return false;
}

/**
 * Whether word[0, end) is consonants, one vowel and a last consonant other than w, x or y, as a
 * whole (hop, trap; not ahop): the short stem that gets its e back (hop(e)d → hope).
 */
function isShortCvc(word: string, end: number): boolean {
  if (end < 3 || isAeiou(word.charCodeAt(0))) return false;
  for (let k = 1; k < end - 2; k++) {
    const code = word.charCodeAt(k);
    if (isAeiou(code) || code === Y) return false;
  }
  const v = word.charCodeAt(end - 2);
  if (!isAeiou(v) && v !== Y) return false;
  const last = word.charCodeAt(end - 1);
  return !isAeiou(last) && last !== Y && last !== 119 && last !== 120;
}

/** The longest of `endings` the word ends with, after at least one letter. */
function longestEnding(word: string, endings: readonly string[]): number {
  let best = -1;
  for (let k = 0; k < endings.length; k++) {
    const ending = endings[k]!;
    if (ending.length < word.length && word.endsWith(ending) && (best < 0 || ending.length > endings[best]!.length)) best = k;
  }
  return best;
}

/** Step 1b: -eed, -ed, -ing. */
function step1b(word: string): string {
  const n = word.length;
  if (n > 3 && word.endsWith("eed")) return measure(word, n - 3, 1) > 0 ? word.slice(0, -1) : word;
  const cut = n > 2 && word.endsWith("ed") ? n - 2 : n > 3 && word.endsWith("ing") ? n - 3 : -1;
  if (cut < 0 || !hasVowel(word, cut)) return word;
  const stem = word.slice(0, cut);
  if (stem.endsWith("at") || stem.endsWith("bl") || stem.endsWith("iz")) return `${stem}e`;
  const last = stem.charCodeAt(cut - 1);
  // A doubled consonant is undoubled, except l, s and z (hopping → hop; falling stays fall).
  if (cut >= 2 && last === stem.charCodeAt(cut - 2) && !isAeiou(last) && last !== Y && last !== 108 && last !== 115 && last !== 122) return stem.slice(0, -1);
  return isShortCvc(stem, cut) ? `${stem}e` : stem;
}

/** Steps 2 and 3: a longest ending in `table` replaced when its stem's measure is above 0. */
function replaceEnding(word: string, table: ReadonlyArray<readonly [string, string]>, endings: readonly string[]): string {
  const k = longestEnding(word, endings);
  if (k < 0) return word;
  const cut = word.length - endings[k]!.length;
  return measure(word, cut, 1) > 0 ? word.slice(0, cut) + table[k]![1] : word;
}

const STEP2_ENDINGS = STEP2.map(([ending]) => ending);
const STEP3_ENDINGS = STEP3.map(([ending]) => ending);

/** The Porter stem of a lower-case a–z word (words under 3 letters stay as they are). */
export function porterStem(input: string): string {
  if (input.length < 3) return input;
  let word = input;
  // Step 1a: -sses, -ies, -s.
  const n = word.length;
  if ((n > 4 && word.endsWith("sses")) || (n > 3 && word.endsWith("ies"))) word = word.slice(0, -2);
  else if (word.charCodeAt(n - 1) === 115 && word.charCodeAt(n - 2) !== 115) word = word.slice(0, -1);
  word = step1b(word);
  // Step 1c: y → i after a vowel in the stem.
  if (word.length > 1 && word.charCodeAt(word.length - 1) === Y && hasVowel(word, word.length - 1)) word = `${word.slice(0, -1)}i`;
  word = replaceEnding(word, STEP2, STEP2_ENDINGS);
  word = replaceEnding(word, STEP3, STEP3_ENDINGS);
  // Step 4: endings dropped after a measure above 1; -sion/-tion lose the s or t with the ion.
  const k = longestEnding(word, STEP4);
  if (k >= 0) {
    const cut = word.length - STEP4[k]!.length;
    if (measure(word, cut, 2) > 1) word = word.slice(0, cut);
  } else if (word.length > 4 && (word.endsWith("sion") || word.endsWith("tion"))) {
    if (measure(word, word.length - 4, 2) > 1) word = word.slice(0, -4);
  }
  // Step 5: a final e, then a final ll.
  if (word.length > 1 && word.endsWith("e")) {
    const cut = word.length - 1;
    const m = measure(word, cut, 2);
    if (m > 1 || (m === 1 && !isShortCvc(word, cut))) word = word.slice(0, cut);
  }
  if (word.endsWith("ll") && measure(word, word.length, 2) > 1) word = word.slice(0, -1);
  return word;
}
