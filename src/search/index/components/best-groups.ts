// Cutting a search's scored documents to those of the best groups (messages), as the owner's
// grouping policy scores a group from its best parts and a part from its best documents, then
// ordering them best first as Orama does (score, then document id), so Orama sorts and returns a
// few hundred hits rather than thousands (docs/architecture.md).

import { insertBestScore } from "../../../util/best.ts";
import { lowerBound } from "../../../util/lower-bound.ts";
import type { PostingsStore } from "./postings.ts";
import type { Scratch } from "./score-docs.ts";

/** Which documents a search returns: those of the best groups. The owner supplies it (ranking's policy). */
export interface ResultGrouping {
  /** The enum attribute whose value groups documents. */
  property: string;
  /** How many of the best groups to return the documents of (groups tied with the last are kept too). */
  groups(): number;
  /** A group's score from its best parts' scores (partScore), sorted best first in scores[from, to). */
  score(scores: ArrayLike<number>, from: number, to: number): number;
  /** A part's score from its best documents' scores, sorted best first in scores[from, to), and how many of its documents matched. */
  partScore(scores: ArrayLike<number>, from: number, to: number, matched: number): number;
  /** How many of a group's best parts its score reads, and of a part's best documents its score reads. */
  counted: number;
  /** By document id, a number naming the part the document is a chunk of (equal within one part). */
  parts(): Int32Array;
}

/** Per group key: parts counted and the best parts' scores (sorted, `grouping.counted` a group), reused across searches. */
interface GroupScratch {
  count: Int32Array;
  best: Float64Array;
  score: Float64Array;
  keys: Int32Array;
}

const groupScratchByStore = new WeakMap<PostingsStore, GroupScratch>();

/** The store's scratch of at least `slots` slots of `counted` scores each, made anew (twice the size) when smaller. */
function scratchOf<T extends { count: Int32Array; best: Float64Array }>(
  byStore: WeakMap<PostingsStore, T>,
  store: PostingsStore,
  slots: number,
  counted: number,
  make: (size: number) => T,
): T {
  let scratch = byStore.get(store);
  if (!scratch || scratch.count.length < slots || scratch.best.length < slots * counted) {
    scratch = make(Math.max(slots, 256) * 2);
    byStore.set(store, scratch);
  }
  return scratch;
}

/** Per part number: documents matched, how many of the best scores are held, those scores, the part's group; reused across searches. */
interface PartScratch {
  matched: Int32Array;
  count: Int32Array;
  best: Float64Array;
  key: Int32Array;
  touched: Int32Array;
}

const partScratchByStore = new WeakMap<PostingsStore, PartScratch>();

/**
 * The scored documents of the best `wanted` groups (every one when there are no more), best
 * first: score, then document id (Orama's own order). One pass keeps each part's best
 * `grouping.counted` scores and how many of its documents matched; a second scores each part and
 * keeps each group's best `grouping.counted` parts; so only the documents returned are sorted, not
 * every one touched.
 */
export function bestGroups(
  store: PostingsStore,
  scratch: Scratch,
  n: number,
  key: Int32Array,
  keyCount: number,
  grouping: ResultGrouping,
  wanted: number,
): RankedDocs {
  const { score, touched } = scratch;
  const counted = Math.max(1, grouping.counted);
  const groups = scratchOf(groupScratchByStore, store, keyCount, counted, (size) => ({
    count: new Int32Array(size),
    best: new Float64Array(size * counted),
    score: new Float64Array(size),
    keys: new Int32Array(size),
  }));
  const { count, best, keys } = groups;
  const partOf = grouping.parts();
  let maxPart = 0;
  for (let i = 0; i < n; i++) maxPart = Math.max(maxPart, partOf[touched[i]!]!);
  const parts = scratchOf(partScratchByStore, store, maxPart + 1, counted, (size) => ({
    matched: new Int32Array(size),
    count: new Int32Array(size),
    best: new Float64Array(size * counted),
    key: new Int32Array(size),
    touched: new Int32Array(size),
  }));
  let partCount = 0;
  for (let i = 0; i < n; i++) {
    const doc = touched[i]!;
    const p = partOf[doc]!;
    const held = parts.count[p]!;
    if (held === 0) {
      parts.touched[partCount++] = p;
      parts.key[p] = key[doc]!;
      parts.matched[p] = 0;
    }
    parts.matched[p]!++;
    parts.count[p] = insertBestScore(parts.best, p * counted, held, counted, score[doc]!);
  }
  let groupCount = 0;
  for (let q = 0; q < partCount; q++) {
    const p = parts.touched[q]!;
    const k = parts.key[p]!;
    const value = grouping.partScore(parts.best, p * counted, p * counted + parts.count[p]!, parts.matched[p]!);
    parts.count[p] = 0;
    const held = count[k]!;
    if (held === 0) keys[groupCount++] = k;
    count[k] = insertBestScore(best, k * counted, held, counted, value);
  }
  const groupScores = new Float64Array(groupCount);
  for (let g = 0; g < groupCount; g++) {
    const k = keys[g]!;
    const value = grouping.score(best, k * counted, k * counted + count[k]!);
    groupScores[g] = value;
    groups.score[k] = value;
    count[k] = 0;
  }
  let floor = -Infinity;
  if (groupCount > wanted) {
    const ordered = groupScores.slice().sort();
    const last = ordered[ordered.length - wanted]!;
    // Groups tied with the last one kept stay: ranking breaks the tie, not this cut.
    floor = last - 1e-9 * Math.max(1, Math.abs(last));
  }
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const doc = touched[i]!;
    if (groups.score[key[doc]!]! >= floor) touched[kept++] = doc;
  }
  return bestFirst(touched, kept, score, store.docsEnd);
}

/** Documents of a search, best first: score, then the lower document id (Orama's own order). */
export interface RankedDocs {
  docs: Int32Array;
  scores: Float64Array;
}

/**
 * docs[0, n) ordered by score (highest first), then id. Each document's sort key packs the rank of
 * its score among the distinct scores with its id into one float64, so two native numeric sorts
 * do the work of a comparator sort of pairs (several times slower in JSC).
 */
function bestFirst(docs: Int32Array, n: number, score: Float64Array, idEnd: number): RankedDocs {
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) values[i] = score[docs[i]!]!;
  values.sort();
  const base = idEnd + 1;
  const keys = new Float64Array(n);
  let s = 0;
  const below = (i: number): boolean => values[i]! < s;
  for (let i = 0; i < n; i++) {
    const doc = docs[i]!;
    s = score[doc]!;
    // First position of s in the ascending values: equal scores share it.
    keys[i] = (n - 1 - lowerBound(n, below)) * base + doc;
  }
  keys.sort();
  const out: RankedDocs = { docs: new Int32Array(n), scores: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    const doc = keys[i]! % base;
    out.docs[i] = doc;
    out.scores[i] = score[doc]!;
  }
  return out;
}
