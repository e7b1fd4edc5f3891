// Proximity evidence: where in a chunk the query's content words stand together. A script, a
// task description or a long reasoning message holds a question's words scattered; an answer
// often holds several of them within a sentence or two. It reorders the first results of a
// search (reorderFirst), on their text with the tokenizer's own term matching, so scan, index and
// projection rank alike.

import { fold } from "../text/normalize.ts";
import { isTermAt } from "../text/tokenize.ts";
import type { ParsedQuery } from "../text/query.ts";
import { termNesting } from "../text/term-nesting.ts";
import type { ScoredDoc } from "../types.ts";
import { TUNING } from "../tuning.ts";
import { findCompound } from "./compound.ts";
import { compareResults, type Group, groupScore } from "./rank.ts";
import { grown } from "../../util/grow.ts";

// The window (tuning.ts's proximity) is about two sentences. It must gather at least minWords
// content words (so the query must have as many): two words side by side are no more than a
// compound's evidence (compound.ts), and two common words near each other (`git add`, `run the
// tests`) are found in any long text. It reorders a fixed number of first results, each by its
// best chunks, not a share of the request's limit, so the first results do not change with the
// limit asked for. Until issue 40 it was a boost of each session's five leading candidates: a
// message that might get it had to be read to be ranked, which was most of the messages a
// many-session search read (docs/search-notes.md, "Proximity reorders the first results").

/**
 * Raises the first `TUNING.proximity.results` of `ranked` (best first, their messages read) by
 * their best chunks' proximity and sorts them again. It only raises, so they stay above the rest.
 */
export function reorderFirst<T extends { group: Group }>(ranked: T[], parsed: ParsedQuery, textOf: (doc: ScoredDoc) => string): void {
  const { on, results, chunks } = TUNING.proximity;
  const count = Math.min(ranked.length, results);
  if (!on || count < 2 || !proximityCan(parsed)) return;
  for (let r = 0; r < count; r++) {
    const group = ranked[r]!.group;
    // groupScore left the docs best first.
    let raised = false;
    for (let i = 0; i < Math.min(group.docs.length, chunks); i++) {
      const doc = group.docs[i]!;
      const near = proximityBoost(parsed, textOf(doc));
      if (near === 1) continue;
      doc.score *= near;
      raised = true;
    }
    if (raised) group.score = groupScore(group);
  }
  const first = ranked.slice(0, count).sort((a, b) => compareResults(a.group, b.group));
  ranked.splice(0, count, ...first);
}

/** How deep a ranking whose first results reorderFirst reorders is made, for a page ending at `limit`. */
export function reorderedDepth(limit: number): number {
  return Math.max(limit, TUNING.proximity.results);
}

/** Whether proximity can raise a chunk for this query (its words, and not a command or change question). */
function proximityCan(parsed: ParsedQuery): boolean {
  // A command or change question is answered by a call's input (intent-boost.ts): prose restating the
  // command holds its words closer than the call's arguments do.
  return parsed.groups >= TUNING.proximity.minWords && !parsed.intent;
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
}

const termsOf = new WeakMap<ParsedQuery, ProximityTerms>();

function proximityTerms(parsed: ParsedQuery): ProximityTerms {
  let known = termsOf.get(parsed);
  if (!known) {
    const nesting = termNesting(parsed.terms);
    const compoundGroups = new Set(parsed.compounds.map((compound) => compound.group));
    const counted = parsed.terms.map((term) => !compoundGroups.has(term.group));
    const holders = nesting.within.map((list) => list.filter(([t]) => counted[t]));
    const roots = parsed.terms.map((_, t) => t).filter((t) => nesting.gates[t]! < 0 && (counted[t] || holders[t]!.length > 0));
    const length = [...parsed.terms.map((term) => term.token.length), ...parsed.compounds.map((compound) => compound.text.length)];
    const group = [...parsed.terms.map((term) => term.group), ...parsed.compounds.map((compound) => compound.group)];
    known = { roots, holders, counted, length, group };
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
  if (!on || !proximityCan(parsed)) return 1;
  const span = bestSpan(contentOccurrences(parsed, text), words, window);
  if (span.words < minWords) return 1;
  const gathered = (span.words - 1) / (words - 1);
  const tightness = 1 - (0.5 * span.length) / window;
  return 1 + boost * gathered * tightness;
}
