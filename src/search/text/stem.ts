// Light English stemming for natural-language query words: a word also matches the other forms
// of its stem (`prints` finds `print` and `printed`), at a lower weight than the form typed.
// Only the query is stemmed: the forms are generated from the word's Porter stem (@orama/stemmers'
// English stemmer) and kept when they stem back to it, so the index and the cold scan look them up
// as ordinary terms and the index stores nothing extra. stemVariants memoises per word: about 8
// stemmer calls each, and the stemmer builds its patterns on every call. Identifiers, paths,
// numbers and code are never stemmed (see isNaturalWord).

import { stemmer } from "@orama/stemmers/english";
import { BoundedMap } from "../../util/bounded-map.ts";

// Another form weighs less than the form typed, and only a few are kept (tuning.ts's query.stems).

const SUFFIXES = ["", "s", "es", "ed", "d", "ing", "e", "ion", "ions"];
const VOWEL = /[aeiou]/;

/** Whether `suffix` can follow `base` in an English word form (drops the obvious non-words). */
function fits(base: string, suffix: string): boolean {
  const beforeLast = base[base.length - 2] ?? "";
  // Porter's y → i (query → queri, play → plai): after a consonant the i takes -es and -ed
  // (queries, queried), never -ing; after a vowel it is no word's base. A restored y takes -ing
  // (querying), after a vowel -s and -ed too (plays, played).
  if (base.endsWith("i")) return !VOWEL.test(beforeLast) && suffix !== "ing" && suffix !== "d" && suffix !== "e";
  if (base.endsWith("y")) return suffix === "" || suffix === "ing" || (VOWEL.test(beforeLast) && (suffix === "s" || suffix === "ed"));
  const sibilant = /(s|x|z|ch|sh)$/.test(base);
  if (suffix === "s") return !sibilant;
  if (suffix === "es") return sibilant;
  if (suffix === "d" || suffix === "e") return !base.endsWith("e") && (suffix === "e" || base.endsWith("e"));
  // A base ending in e takes no suffix starting with a vowel (line → lined, lining: not lineing).
  return !(base.endsWith("e") && VOWEL.test(suffix[0] ?? ""));
}

const cache = new BoundedMap<string, string[]>(1024);

/**
 * A verb in -ify and its noun in -ification (simplify, simplification; verified, verification):
 * Porter stems them apart (simplifi, simplif), though a question says one where the session wrote
 * the other. Each form is kept only when it stems as its family does.
 */
function ifyFamily(word: string, stem: string): string[] {
  const verbRoot = stem.endsWith("ifi") ? stem.slice(0, -3) : undefined;
  const nounRoot = /^(.+)ifications?$/.exec(word)?.[1];
  const root = verbRoot ?? nounRoot;
  if (root === undefined || root.length < 3) return [];
  const [forms, familyStem] = verbRoot !== undefined ? [["ification", "ifications"], `${root}if`] : [["ify", "ified", "ifies", "ifying"], `${root}ifi`];
  return forms.map((ending) => root + ending).filter((form) => form !== word && stemmer(form) === familyStem);
}

/** Other forms of a lower-case word that share its stem (the word itself excluded), the first `max`. */
export function stemVariants(word: string, max: number): readonly string[] {
  const variants = cache.get(word) ?? allVariants(word);
  return variants.length > max ? variants.slice(0, max) : variants;
}

function allVariants(word: string): string[] {
  const stem = stemmer(word);
  const bases = [stem];
  // Porter turns a final y into i (query → queri) and drops a final e (parse → pars, line → line).
  if (stem.endsWith("i")) bases.push(`${stem.slice(0, -1)}y`);
  if (stem.endsWith("e") && stem.length > 3) bases.push(stem.slice(0, -1));
  // A short consonant-vowel-consonant stem doubles its last letter: run → running, stop → stopped.
  if (stem.length <= 4 && /[^aeiouwxy][aeiou][^aeiouwxy]$/.test(stem)) bases.push(stem + stem[stem.length - 1]);
  const variants: string[] = [];
  // An adverb in -ly matches its adjective when both share a stem (recursively → recursive, as in
  // `--recursive`; manually → manual): Porter reaches it by rewriting the ending, not by a suffix
  // added to the stem. The stem check keeps out nouns in -ly (apply → app, family → fami).
  const adjective = word.endsWith("ly") ? word.slice(0, -2) : "";
  if (adjective.length >= 4 && stemmer(adjective) === stem) variants.push(adjective);
  for (const form of ifyFamily(word, stem)) if (!variants.includes(form)) variants.push(form);
  for (const suffix of SUFFIXES) {
    for (const base of bases) {
      if (!fits(base, suffix)) continue;
      const form = base + suffix;
      if (form === word || form.length < 3 || variants.includes(form)) continue;
      if (stemmer(form) === stem) variants.push(form);
    }
  }
  cache.set(word, variants);
  return variants;
}

/**
 * Whether a query word is natural language: at least 4 ASCII letters, lower case or capitalised
 * (no inner capitals: those are identifier humps), not glued to a path, identifier or number by
 * `_ . / - : # $ @ \` or a digit on either side.
 */
export function isNaturalWord(query: string, start: number, end: number): boolean {
  if (end - start < 4) return false;
  let upper = 0;
  for (let k = start; k < end; k++) {
    const c = query.charCodeAt(k);
    if (c >= 65 && c <= 90) upper++;
    else if (c < 97 || c > 122) return false;
  }
  const capitalised = upper === 0 || (upper === 1 && query.charCodeAt(start) <= 90);
  if (!capitalised) return false;
  return !gluedAt(query, start - 1, start - 2) && !gluedAt(query, end, end + 1);
}

/** True when the character at `at` joins the word to a path or identifier (`beyond` is the next one out). */
function gluedAt(query: string, at: number, beyond: number): boolean {
  if (at < 0 || at >= query.length) return false;
  const ch = query[at]!;
  // A sentence's full stop, colon or dash is followed (or preceded) by a space or the end.
  if (ch === "." || ch === ":" || ch === "-") return beyond >= 0 && beyond < query.length && !/\s/.test(query[beyond]!);
  return "_/\\#$@0123456789".includes(ch);
}
