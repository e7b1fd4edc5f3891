// Text shaping shared by previews, pulls and snippets: flatten, clip at a boundary, never split
// a surrogate pair.

/** Whitespace (newlines included) collapsed to single spaces; control characters dropped. */
export function flatten(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

export function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * Largest cut <= index that does not fall between the halves of a surrogate pair. A lone
 * surrogate (binary-looking tool output has them) is not a pair: cutting after it is fine, and
 * the cut must not move, or a page ending there and the next one starting there would overlap.
 */
export function safeCut(text: string, index: number): number {
  if (index <= 0) return 0;
  if (index >= text.length) return text.length;
  return isHighSurrogate(text.charCodeAt(index - 1)) && isLowSurrogate(text.charCodeAt(index)) ? index - 1 : index;
}

/**
 * A prefix of flatten(text) longer than `max` (or all of it when shorter): flattening a
 * multi-megabyte part whole for a 160-character preview took about half a second.
 */
function flatPrefix(text: string, max: number): string {
  for (let take = 4 * max + 64; ; take *= 4) {
    if (take >= text.length) return flatten(text);
    const flat = flatten(text.slice(0, safeCut(text, take)));
    if (flat.length > max) return flat;
  }
}

const SENTENCE_END = /[.!?。！？](?=\s|$)|[。！？]/g;

/**
 * At most `max` characters of flattened text, cut at a sentence end, else a word boundary,
 * else anywhere (CJK has no spaces); a cut ends with "…".
 */
export function clip(text: string, max: number): string {
  const flat = flatPrefix(text, max);
  if (flat.length <= max) return flat;
  const room = Math.max(1, max - 1);
  const head = flat.slice(0, safeCut(flat, room));
  let sentenceCut = -1;
  for (const match of head.matchAll(SENTENCE_END)) sentenceCut = match.index + match[0].length;
  if (sentenceCut >= room * 0.6) return `${head.slice(0, sentenceCut).trimEnd()}…`;
  // The head may already end on a word boundary.
  const space = flat[head.length] === " " ? head.length : head.lastIndexOf(" ");
  if (space >= room * 0.6) return `${head.slice(0, space).trimEnd()}…`;
  return `${head}…`;
}

/** Long content cut so the model sees that more exists. */
export interface Cut {
  text: string;
  /** Characters left out; 0 when nothing was cut. */
  more: number;
}

/** At most `max` characters, followed by a `[N chars more]` marker when cut. */
export function cutWithMarker(text: string, max: number): Cut {
  if (text.length <= max) return { text, more: 0 };
  const end = safeCut(text, max);
  const more = text.length - end;
  return { text: `${text.slice(0, end)}… [${more} chars more]`, more };
}
