// Proximity evidence: where in a chunk the query's content words stand together. A script, a
// task description or a long reasoning message holds a question's words scattered; an answer
// often holds several of them within a sentence or two. Checked on the leading candidates only
// (rank.ts), on their text with the tokenizer's own term matching, so scan and index rank alike.

import { fold } from "../text/normalize.ts";
import { countTerm, FUNCTION_WORD_GROUP, type ParsedQuery } from "../text/tokenize.ts";
import { findCompound } from "./phrase.ts";

/** Longest stretch of text (code units, about two sentences) whose words count as standing together. */
export const PROXIMITY_WINDOW = 240;
/** A chunk whose window gathers every content word of the query, tightly, scores this much more (×1.5). */
export const PROXIMITY_BOOST = 0.5;
/**
 * Queries with fewer content words get no proximity boost: two words side by side are the
 * whole-phrase or compound evidence (phrase.ts), and two words a sentence apart tell little.
 */
export const PROXIMITY_MIN_WORDS = 3;

/** Occurrences of the query's content words in a text, in text order: offsets, ends and query words. */
export interface Occurrences {
  at: number[];
  end: number[];
  group: number[];
}

/**
 * Where each content word of the query occurs in `text` (folded: `folded`), in text order: a word
 * by any of its terms (its form, its other forms, its identifier parts) as the tokenizer matches
 * them; a path or name of the query only where it is held whole. Function words are left out.
 */
export function contentOccurrences(parsed: ParsedQuery, text: string, folded: string): Occurrences {
  const found: number[] = [];
  const compoundGroups = new Set<number>();
  for (const { text: compound, group } of parsed.compounds) {
    compoundGroups.add(group);
    for (let at = findCompound(text, folded, compound); at >= 0; at = findCompound(text, folded, compound, at + 1)) {
      found.push(at, at + compound.length, group);
    }
  }
  const positions: number[] = [];
  for (const term of parsed.terms) {
    if (term.group === FUNCTION_WORD_GROUP || compoundGroups.has(term.group)) continue;
    positions.length = 0;
    countTerm(text, folded, term, positions);
    for (const at of positions) found.push(at, at + term.token.length, term.group);
  }
  const order = Array.from({ length: found.length / 3 }, (_, i) => i * 3).sort((a, b) => found[a]! - found[b]!);
  return { at: order.map((i) => found[i]!), end: order.map((i) => found[i + 1]!), group: order.map((i) => found[i + 2]!) };
}

/**
 * The stretch of at most `window` code units holding the most distinct content words, the
 * shortest such: how many words it holds and its length (0 words when none holds two).
 * One pass with two ends over the occurrences.
 */
export function bestSpan(occurrences: Occurrences, groups: number, window: number): { words: number; length: number } {
  const { at, end, group } = occurrences;
  const inWindow = new Int32Array(groups);
  let words = 0;
  let best = { words: 0, length: 0 };
  let left = 0;
  for (let right = 0; right < at.length; right++) {
    if (inWindow[group[right]!]!++ === 0) words++;
    // Drop from the left what is too far, or a word held again further right.
    while (end[right]! - at[left]! > window || inWindow[group[left]!]! > 1) {
      if (--inWindow[group[left]!]! === 0) words--;
      left++;
    }
    const length = end[right]! - at[left]!;
    if (words >= 2 && (words > best.words || (words === best.words && length < best.length))) best = { words, length };
  }
  return best;
}

/**
 * How much a chunk's score is raised for the query's content words standing close together:
 * 1 + PROXIMITY_BOOST × (share of the query's other words its best window gathers beside one)
 * × (1 − half the window's length over PROXIMITY_WINDOW); 1 when no window holds two words.
 */
export function proximityBoost(parsed: ParsedQuery, text: string): number {
  const words = parsed.groups;
  if (words < PROXIMITY_MIN_WORDS) return 1;
  const span = bestSpan(contentOccurrences(parsed, text, fold(text)), words, PROXIMITY_WINDOW);
  if (span.words < 2) return 1;
  const gathered = (span.words - 1) / (words - 1);
  const tightness = 1 - (0.5 * span.length) / PROXIMITY_WINDOW;
  return 1 + PROXIMITY_BOOST * gathered * tightness;
}
