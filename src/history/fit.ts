// What both browse answers share: their options, their window around an anchor (clamped to a cap
// with a note saying so), and keeping them under the byte cap (lists inside an entry are
// shortened, and a window that still does not fit loses entries at the edge farther from its anchor).

import { byteLength, toJson } from "./compact.ts";
import { MAX_ANSWER_BYTES } from "./limits.ts";
import { safeCut } from "./text.ts";

export interface BrowseOptions {
  previewChars: number;
  /** Most entries per call. */
  cap: number;
  directory: string;
}

export interface ListLimits {
  /** Most items of one list (attachments, tool calls, modified files) before "… N more". */
  listItems: number;
  /** Most characters of one item. */
  itemChars: number;
}

/** Lists as they are shown first; the second level is the fallback when one entry alone is too big. */
export const LIST_LEVELS: readonly ListLimits[] = [
  { listItems: 20, itemChars: 200 },
  { listItems: 3, itemChars: 100 },
];

/** Bytes kept free for an answer's envelope: edge ids and notes. */
const ENVELOPE_BYTES = 1_000;

/** Previews of the fallback level, when one entry alone would not fit. */
const FALLBACK_PREVIEW_CHARS = 160;

export interface WindowRequest {
  anchor: number;
  numBefore: number;
  numAfter: number;
  /** Number of items the window picks from. */
  length: number;
  /** Most items one window may hold. */
  cap: number;
  /** Plural noun for the note, e.g. "turns". */
  noun: string;
}

export interface Window {
  from: number;
  to: number;
  note?: string;
}

export function windowAround(request: WindowRequest): Window {
  const { anchor, length, cap, noun } = request;
  let before = Math.min(request.numBefore, anchor);
  let after = Math.min(request.numAfter, length - 1 - anchor);
  let note: string | undefined;
  if (before + after + 1 > cap) {
    // Keep the anchor and share the room, before first (the usual reading direction is backwards).
    const room = cap - 1;
    before = Math.min(before, Math.max(room - after, Math.ceil(room / 2)));
    after = Math.min(after, room - before);
    note = `window clamped to ${cap} ${noun} per call (asked for ${request.numBefore + request.numAfter + 1}); page with the ids at the edges`;
  }
  return { from: anchor - before, to: anchor + after + 1, note };
}

/** Notes joined into one sentence list. */
export function joinNotes(...notes: (string | undefined)[]): string | undefined {
  const present = notes.filter((note): note is string => note !== undefined);
  return present.length > 0 ? present.join("; ") : undefined;
}

export function shortList(items: readonly string[] | undefined, limits: ListLimits = LIST_LEVELS[0]!): string[] | undefined {
  if (!items) return undefined;
  const cut = (item: string) => (item.length <= limits.itemChars ? item : `${item.slice(0, safeCut(item, limits.itemChars - 1))}…`);
  if (items.length <= limits.listItems) return items.map(cut);
  return [...items.slice(0, limits.listItems).map(cut), `… ${items.length - limits.listItems} more`];
}

/**
 * The largest range [from, to) around `anchor` whose entry sizes fit `budget`, dropping entries
 * from whichever edge is farther from the anchor; the anchor itself is always kept.
 */
function fitRange(sizes: readonly number[], anchor: number, budget: number): { from: number; to: number } {
  let from = 0;
  let to = sizes.length;
  let total = sizes.reduce((sum, size) => sum + size, 0);
  while (total > budget && to - from > 1) {
    if (anchor - from >= to - 1 - anchor) total -= sizes[from++]!;
    else total -= sizes[--to]!;
  }
  return { from, to };
}

/**
 * A browse answer under the byte cap. The entries of `window` are made at each list level in turn
 * (the fallback level also shortens previews); at each, those that fit are kept, dropping entries
 * at the edge farther from `anchor`, and `answer` makes the answer from the kept range
 * [from, to) (`cut`: some were dropped). The first answer that fits is returned, else the last.
 */
export function fitAnswer<Entry, Answer>(
  options: BrowseOptions,
  window: { from: number; to: number },
  anchor: number,
  entry: (index: number, options: BrowseOptions, lists: ListLimits) => Entry,
  answer: (kept: Entry[], from: number, to: number, cut: boolean) => Answer,
): Answer {
  let result: Answer | undefined;
  for (const [level, lists] of LIST_LEVELS.entries()) {
    const entryOptions = { ...options, previewChars: level === 0 ? options.previewChars : Math.min(options.previewChars, FALLBACK_PREVIEW_CHARS) };
    const entries: Entry[] = [];
    for (let index = window.from; index < window.to; index++) entries.push(entry(index, entryOptions, lists));
    const fit = fitRange(
      entries.map((made) => byteLength(toJson(made)) + 1),
      anchor - window.from,
      MAX_ANSWER_BYTES - ENVELOPE_BYTES,
    );
    result = answer(entries.slice(fit.from, fit.to), window.from + fit.from, window.from + fit.to, fit.to - fit.from < entries.length);
    if (byteLength(toJson(result)) <= MAX_ANSWER_BYTES) return result;
  }
  return result!;
}
