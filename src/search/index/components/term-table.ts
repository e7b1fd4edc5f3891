// The index's term dictionary: every distinct term once, its characters packed in one Uint16Array
// and found through an open-addressing hash table of term ids. Terms are interned straight from
// a span of folded text, so indexing makes no string per token and holds no string per term.

import { grown } from "../../../util/grow.ts";

const EMPTY = -1;

export class TermTable {
  /** Characters of every term, back to back. */
  private chars: Uint16Array<ArrayBuffer> = new Uint16Array(1 << 14);
  private charTop = 0;
  /** Per term id: where its characters start, and how many. */
  private start = new Int32Array(1024);
  private length = new Uint8Array(1024);
  private hashes = new Int32Array(1024);
  /** Hash slots holding term ids (EMPTY when free); size is a power of two, at most half full. */
  private slots = new Int32Array(2048).fill(EMPTY);
  count = 0;
  /**
   * The letter terms' ids by length, made by the first lookup that reads them and kept up from
   * then on: most indexes never correct a typo, and filing every new term cost each build a pass
   * over its characters and the lists' heap (335 KB of the 10,000-message bench session's index).
   */
  private letters: LetterTerms | undefined;

  /** Heap bytes held by the table's arrays. */
  bytes(): number {
    let idLists = 0;
    for (const list of this.letters ?? []) idLists += list?.ids.byteLength ?? 0;
    return this.chars.byteLength + this.start.byteLength + this.length.byteLength + this.hashes.byteLength + this.slots.byteLength + idLists;
  }

  /** Term id of folded[start, end), or -1 when absent. */
  find(folded: string, start: number, end: number): number {
    const hash = hashOf(folded, start, end);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot]!;
      if (id === EMPTY) return -1;
      if (this.hashes[id] === hash && this.equals(id, folded, start, end)) return id;
    }
  }

  /** Term id of folded[start, end), added when new (end - start ≤ 255). */
  intern(folded: string, start: number, end: number): number {
    const hash = hashOf(folded, start, end);
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    for (; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot]!;
      if (id === EMPTY) break;
      if (this.hashes[id] === hash && this.equals(id, folded, start, end)) return id;
    }
    const id = this.count++;
    if (id >= this.start.length) this.growTerms();
    const length = end - start;
    if (this.charTop + length > this.chars.length) this.chars = grown(this.chars, this.charTop + length);
    const chars = this.chars;
    const at = this.charTop;
    for (let k = 0; k < length; k++) chars[at + k] = folded.charCodeAt(start + k);
    this.charTop += length;
    this.start[id] = at;
    this.length[id] = length;
    this.hashes[id] = hash;
    this.slots[slot] = id;
    if (this.count * 2 > this.slots.length) this.rehash();
    if (this.letters) this.classify(this.letters, id);
    return id;
  }

  /**
   * Calls `visit(chars, start, length, id)` for every term of `minLength` to `maxLength` characters,
   * all of them a–z, in id order, handing it the packed characters instead of a string per term.
   * Reads only the terms of those lengths: a typo lookup on a 30 MB session walked every term.
   */
  forEachLetterTerm(minLength: number, maxLength: number, visit: (chars: Uint16Array, start: number, length: number, id: number) => void): void {
    const lists = this.classified()
      .slice(Math.max(0, minLength), Math.max(0, maxLength + 1))
      .filter((list) => list !== undefined);
    let ids: Int32Array;
    if (lists.length === 1) ids = lists[0]!.ids.subarray(0, lists[0]!.size);
    else {
      ids = new Int32Array(lists.reduce((sum, list) => sum + list.size, 0));
      let at = 0;
      for (const list of lists) {
        ids.set(list.ids.subarray(0, list.size), at);
        at += list.size;
      }
      ids.sort();
    }
    for (const id of ids) visit(this.chars, this.start[id]!, this.length[id]!, id);
  }

  private classified(): LetterTerms {
    if (!this.letters) {
      const letters: LetterTerms = [];
      for (let id = 0; id < this.count; id++) this.classify(letters, id);
      this.letters = letters;
    }
    return this.letters;
  }

  /** Files the term under its length when it is all a–z. */
  private classify(letters: LetterTerms, id: number): void {
    const chars = this.chars;
    const at = this.start[id]!;
    const length = this.length[id]!;
    for (let k = 0; k < length; k++) {
      const c = chars[at + k]!;
      if (c < 97 || c > 122) return;
    }
    let list = letters[length];
    if (!list) letters[length] = list = emptyIdList();
    append(list, id);
  }

  /** The term's text. */
  text(id: number): string {
    const at = this.start[id]!;
    // apply reads the array by index; a spread walks it through the iterator protocol.
    return String.fromCharCode.apply(null, this.chars.subarray(at, at + this.length[id]!) as unknown as number[]);
  }

  private equals(id: number, folded: string, start: number, end: number): boolean {
    const length = end - start;
    if (this.length[id] !== length) return false;
    const at = this.start[id]!;
    const chars = this.chars;
    for (let k = 0; k < length; k++) if (chars[at + k] !== folded.charCodeAt(start + k)) return false;
    return true;
  }

  private growTerms(): void {
    this.start = grown(this.start, this.start.length + 1);
    this.length = grown(this.length, this.length.length + 1);
    this.hashes = grown(this.hashes, this.hashes.length + 1);
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2).fill(EMPTY);
    const mask = slots.length - 1;
    for (let id = 0; id < this.count; id++) {
      let slot = this.hashes[id]! & mask;
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[slot] = id;
    }
    this.slots = slots;
  }
}

interface IdList {
  ids: Int32Array;
  size: number;
}

/** Ids of the all a–z terms by length, each in id order. */
type LetterTerms = Array<IdList | undefined>;

function emptyIdList(): IdList {
  return { ids: new Int32Array(64), size: 0 };
}

function append(list: IdList, id: number): void {
  if (list.size === list.ids.length) list.ids = grown(list.ids, list.size + 1);
  list.ids[list.size++] = id;
}

function hashOf(text: string, start: number, end: number): number {
  // FNV-1a over UTF-16 code units, then a final mix so low bits spread.
  let h = 0x811c9dc5;
  for (let k = start; k < end; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return h & 0x7fffffff;
}
