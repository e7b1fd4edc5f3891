// Proximity evidence: where in a chunk the query's content words stand together. A script, a
// task description or a long reasoning message holds a question's words scattered; an answer
// often holds several of them within a sentence or two. Checked on the leading candidates only
// (rank.ts), on their text with the tokenizer's own term matching, so scan and index rank alike.

import { fold } from "../text/normalize.ts";
import { isTermAt } from "../text/tokenize.ts";
import { FUNCTION_WORD_GROUP, type ParsedQuery } from "../text/query.ts";
import { termNesting } from "../text/term-nesting.ts";
import { TUNING } from "../tuning.ts";
import { findCompound } from "./compound.ts";
import { grown } from "../../util/grow.ts";

// The window (tuning.ts's proximity) is about two sentences. It must gather at least minWords
// content words (so the query must have as many): two words side by side are no more than a compound's
// evidence (compound.ts), and two common words near each other (`git add`, `run the tests`)
// are found in any long text. Only the leading candidates (best first, before the boosts) are
// checked, and each one's best chunks: locating every occurrence of the query's words costs more
// than the compound check, a message's score rests on its best chunks, and the boost is for the
// order at the top, where an agent reads. A number of its own, not a share of the request's
// limit, so the first results do not change with the limit asked for. (On the eval, the first 5
// ranked as the first 10 did, and all rankPool(limit) candidates with ten chunks each alike but
// for one command question, at five times the cost.)

/** Whether the proximity boost is looked for in the `chunk`-th best chunk of the candidate at `rank`. */
export function proximityApplies(rank: number, chunk: number): boolean {
  const { candidates, chunks } = TUNING.proximity;
  return rank < candidates && chunk < chunks;
}

/** The most proximityBoost can give a chunk of the candidate at `rank` for this query. */
export function proximityBoostMost(parsed: ParsedQuery, rank: number): number {
  const { on, boost, minWords, candidates } = TUNING.proximity;
  return on && rank < candidates && parsed.groups >= minWords && !parsed.intent ? 1 + boost : 1;
}

/**
 * The most proximityBoost can give a chunk of the candidate at `rank` that holds the query terms
 * counted in `tfs` (the scan's counts, which match terms as contentOccurrences does): no window
 * gathers more content words than the chunk holds (heldWords).
 */
export function proximityBoostHeld(parsed: ParsedQuery, rank: number, tfs: readonly number[]): number {
  const most = proximityBoostMost(parsed, rank);
  if (most === 1) return 1;
  const held = heldWords(parsed, tfs);
  return held < TUNING.proximity.minWords ? 1 : 1 + (TUNING.proximity.boost * (held - 1)) / (parsed.groups - 1);
}

/**
 * How many of the query's content words a chunk holding the terms counted in `tfs` can hold: a
 * word when one of its counted terms occurs, a path or name when any term of its word does (held
 * whole, its words occur). Every word when a term is CJK (found by substring, not as counted).
 */
function heldWords(parsed: ParsedQuery, tfs: readonly number[]): number {
  const { wordBits } = proximityTerms(parsed);
  if (wordBits === undefined) return parsed.groups;
  let held = 0;
  for (let t = 0; t < wordBits.length; t++) if (tfs[t]! > 0) held |= wordBits[t]!;
  let count = 0;
  for (; held !== 0; held &= held - 1) count++;
  return count;
}

/** Occurrences of the query's content words in a text, in text order: offsets, ends and query words. */
export interface Occurrences {
  count: number;
  at: ArrayLike<number>;
  end: ArrayLike<number>;
  group: ArrayLike<number>;
}

/**
 * Per query: the terms searched for (roots, as the cold scan's termNesting gates them: a term with
 * no shorter term inside it; the terms holding it are checked where it occurs), the terms a span
 * counts, and per term and compound (numbered after the terms) its length and query word.
 */
interface ProximityTerms {
  roots: number[];
  /** Per root: the terms holding it that a span counts, with the offset of its token in theirs. */
  holders: Array<Array<[term: number, offset: number]>>;
  counted: boolean[];
  length: number[];
  group: number[];
  /**
   * Per term, a bit for the content word a chunk holds where it occurs (heldWords; 0 for none);
   * undefined when a term is CJK or the query has more words than bits.
   */
  wordBits: number[] | undefined;
}

const termsOf = new WeakMap<ParsedQuery, ProximityTerms>();

function proximityTerms(parsed: ParsedQuery): ProximityTerms {
  let known = termsOf.get(parsed);
  if (!known) {
    const nesting = termNesting(parsed.terms);
    const compoundGroups = new Set(parsed.compounds.map((compound) => compound.group));
    const counted = parsed.terms.map((term) => term.group !== FUNCTION_WORD_GROUP && !compoundGroups.has(term.group));
    const holders = nesting.within.map((list) => list.filter(([t]) => counted[t]));
    const roots = parsed.terms.map((_, t) => t).filter((t) => nesting.gates[t]! < 0 && (counted[t] || holders[t]!.length > 0));
    const length = [...parsed.terms.map((term) => term.token.length), ...parsed.compounds.map((compound) => compound.text.length)];
    const group = [...parsed.terms.map((term) => term.group), ...parsed.compounds.map((compound) => compound.group)];
    const wordBits =
      parsed.terms.some((term) => term.cjk) || parsed.groups > 30
        ? undefined
        : parsed.terms.map((term, t) => (counted[t] || compoundGroups.has(term.group) ? 1 << term.group : 0));
    known = { roots, holders, counted, length, group, wordBits };
    termsOf.set(parsed, known);
  }
  return known;
}

/** Scratch, reused: occurrences as offset × SLOTS + term (or compound) number, sorted as numbers. */
const SLOTS = 65536;
let packed = new Float64Array(1024);
let atOf = new Int32Array(1024);
let endOf = new Int32Array(1024);
let groupOf = new Int32Array(1024);
let size = 0;

function pack(start: number, id: number): void {
  if (size === packed.length) packed = grown(packed, size + 1);
  packed[size++] = start * SLOTS + id;
}

/**
 * Where each content word of the query occurs in `text`, in text order: a word by any of its terms
 * (its form, its other forms, its identifier parts) as the tokenizer matches them (isTermAt); a
 * path or name of the query only where it is held whole. Function words are left out. The result
 * is valid until the next call.
 */
export function contentOccurrences(parsed: ParsedQuery, text: string): Occurrences {
  const known = proximityTerms(parsed);
  const { roots, holders, counted } = known;
  const terms = parsed.terms;
  size = 0;
  // A chunk is a few KB: lowering it once and finding tokens with indexOf is several times faster
  // than a case-insensitive pattern per term (the cold scan's way, for whole sessions).
  const lowered = fold(text);
  for (const r of roots) {
    const token = terms[r]!.token;
    const own = counted[r]! && !terms[r]!.cjk;
    const holding = holders[r]!;
    for (let at = lowered.indexOf(token); at >= 0; at = lowered.indexOf(token, at + 1)) {
      if (counted[r] && (!own || isTermAt(text, at, at + token.length))) pack(at, r);
      for (const [t, offset] of holding) {
        const start = at - offset;
        const held = terms[t]!.token;
        if (start < 0 || !lowered.startsWith(held, start)) continue;
        if (terms[t]!.cjk || isTermAt(text, start, start + held.length)) pack(start, t);
      }
    }
  }
  parsed.compounds.forEach(({ text: compound }, c) => {
    for (let at = findCompound(text, lowered, compound); at >= 0; at = findCompound(text, lowered, compound, at + 1)) pack(at, terms.length + c);
  });
  const sorted = packed.subarray(0, size).sort();
  if (atOf.length < size) {
    atOf = new Int32Array(packed.length);
    endOf = new Int32Array(packed.length);
    groupOf = new Int32Array(packed.length);
  }
  for (let i = 0; i < size; i++) {
    const id = sorted[i]! % SLOTS;
    const at = (sorted[i]! - id) / SLOTS;
    atOf[i] = at;
    endOf[i] = at + known.length[id]!;
    groupOf[i] = known.group[id]!;
  }
  return { count: size, at: atOf, end: endOf, group: groupOf };
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
  for (let right = 0; right < occurrences.count; right++) {
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
 * 1 + boost × (share of the query's other words its best window gathers beside one)
 * × (1 − half the window's length over the window); 1 when no window gathers minWords words, and
 * for a question asking for a command run or a change made (boost, window, minWords: tuning.ts).
 */
export function proximityBoost(parsed: ParsedQuery, text: string): number {
  const { on, boost, window, minWords } = TUNING.proximity;
  const words = parsed.groups;
  // A command or change question is answered by a call's input (intent.ts): prose restating the
  // command holds its words closer than the call's arguments do.
  if (!on || words < minWords || parsed.intent) return 1;
  const span = bestSpan(contentOccurrences(parsed, text), words, window);
  if (span.words < minWords) return 1;
  const gathered = (span.words - 1) / (words - 1);
  const tightness = 1 - (0.5 * span.length) / window;
  return 1 + boost * gathered * tightness;
}
