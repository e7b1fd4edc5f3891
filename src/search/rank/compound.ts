// Evidence a chunk's terms alone do not show: a path or name of the query (a compound:
// `django/db/models/fields/related.py`, `pytest_collect_file`) held whole rather than as words
// scattered over the chunk. (The whole query as written boosted a chunk too, until the ablation of
// issue 22 found it moved no question: docs/search-notes.md.) Checked on the leading candidates
// only (rank.ts), on their text, so the scan and the index rank alike.

import { fold } from "../text/normalize.ts";
import { isWordChar } from "../text/tokenize.ts";
import type { ParsedQuery } from "../text/query.ts";

/** True when `text[at]` would continue a compound: a letter, digit or underscore. */
function continues(text: string, at: number): boolean {
  if (at < 0 || at >= text.length) return false;
  return text.charCodeAt(at) === 0x5f || isWordChar(text, at);
}

/** Where `text` (folded: `folded`) holds the compound whole from `from` on (not inside a longer word or name), or -1. */
function findCompound(text: string, folded: string, compound: string, from = 0): number {
  for (let at = folded.indexOf(compound, from); at >= 0; at = folded.indexOf(compound, at + 1)) {
    if (!continues(text, at - 1) && !continues(text, at + compound.length)) return at;
  }
  return -1;
}

/** Whether `text` (folded: `folded`) holds the compound whole. */
export function holdsCompound(text: string, folded: string, compound: string): boolean {
  return findCompound(text, folded, compound) >= 0;
}

/** The compound boost for a chunk holding `held` of the query's compounds whole: written once, its bound is its value for every compound held. */
function raised(parsed: ParsedQuery, held: number): number {
  const { on, boost } = parsed.tuning.compounds;
  const compounds = parsed.compounds.length;
  return compounds > 0 && on ? 1 + ((boost - 1) * held) / compounds : 1;
}

/** How much the chunk's score is raised: a share of the compound boost (tuning.ts) per compound of the query the chunk holds whole; 1 for none. */
export function compoundBoost(parsed: ParsedQuery, text: string): number {
  if (compoundBound(parsed) === 1) return 1;
  const folded = fold(text);
  let held = 0;
  for (const compound of parsed.compounds) if (holdsCompound(text, folded, compound.text)) held++;
  return raised(parsed, held);
}

/**
 * The most compoundBoost can give a chunk holding the query terms counted in `tfs` (any chunk
 * when absent): a compound held whole has its words occur, so one none of whose word's terms
 * occurs is not held, nor one missing a term that stands in it as a word of its own (`use` and
 * `tz` in `use_tz`): a chunk of a common word's (`use`) is then ranked unread.
 */
export function compoundBound(parsed: ParsedQuery, tfs?: readonly number[]): number {
  if (!tfs) return raised(parsed, parsed.compounds.length);
  const whole = wordsOfCompounds(parsed);
  let held = 0;
  parsed.compounds.forEach((compound, c) => {
    // A term of another word may be the one standing in it (`queryset` in `QuerySet.filter` when
    // the query wrote `queryset` first: the compound's word keeps only its humps).
    const occurs = parsed.terms.some((term, t) => tfs[t]! > 0 && (term.group === compound.group || standsAlone(compound.text, term.token)));
    if (occurs && whole[c]!.every((t) => tfs[t]! > 0)) held++;
  });
  return raised(parsed, held);
}

const wordsOf = new WeakMap<ParsedQuery, number[][]>();

/**
 * Per compound, the terms of its query word that stand in it as words of their own: between its
 * ends and characters no word holds. Where a text holds the compound whole (nothing that
 * continues a word on either side), each of them is a term there whatever the case (tokenize.ts's
 * isTermAt: a word's start and end), so its count is not 0. Terms with a dot (a dotted number is
 * a term only whole) and CJK terms (found inside runs) are left out.
 */
function wordsOfCompounds(parsed: ParsedQuery): number[][] {
  let words = wordsOf.get(parsed);
  if (!words) {
    words = parsed.compounds.map((compound) =>
      parsed.terms.flatMap((term, t) =>
        term.group === compound.group && !term.cjk && !term.token.includes(".") && standsAlone(compound.text, term.token) ? [t] : [],
      ),
    );
    wordsOf.set(parsed, words);
  }
  return words;
}

/** Whether `token` is in `text` between its ends and characters that are not a word's. */
function standsAlone(text: string, token: string): boolean {
  for (let at = text.indexOf(token); at >= 0; at = text.indexOf(token, at + 1)) {
    const end = at + token.length;
    if ((at === 0 || !isWordChar(text, at - 1)) && (end === text.length || !isWordChar(text, end))) return true;
  }
  return false;
}
