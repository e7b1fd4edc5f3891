// Short windows of a chunk around its matches: several per hit, each at most `chars` long,
// control characters and line breaks flattened, never a split surrogate pair.

import { fold } from "./normalize.ts";
import { countTerm, type ParsedQuery } from "./query.ts";
import { isHighSurrogate, isLowSurrogate } from "../../history/text.ts";

export interface Mark {
  start: number;
  end: number;
  /** Which term matched (windows covering more distinct keys are preferred). */
  key: number;
}

const MAX_MARKS = 400;

/** Where a keyword query matches a chunk: each term, and the whole phrase (key -1). */
export function keywordMarks(text: string, parsed: ParsedQuery): Mark[] {
  const folded = fold(text);
  const marks: Mark[] = [];
  if (parsed.phrase) {
    // Over the fold, which for ASCII text is the text lower-cased: the ASCII pattern's offsets.
    const global = parsed.phrase.forText(text, true).pattern;
    global.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = global.exec(folded)) && marks.length < 50) {
      marks.push({ start: m.index, end: m.index + m[0].length, key: -1 });
      if (m[0].length === 0) global.lastIndex++;
    }
  }
  parsed.terms.forEach((term, key) => {
    if (marks.length >= MAX_MARKS) return;
    const positions: number[] = [];
    countTerm(text, folded, term, positions);
    for (const p of positions.slice(0, 100)) marks.push({ start: p, end: p + term.token.length, key });
  });
  return marks;
}

/** Marks of a literal or regex match, from the spans the scan found in the chunk. */
export function patternMarks(spans: readonly [number, number][] | undefined): Mark[] {
  return (spans ?? []).slice(0, MAX_MARKS).map(([start, end]) => ({ start, end, key: 0 }));
}

/** Flattened, trimmed text of text[start, end), with … where it was cut. */
export function renderWindow(text: string, start: number, end: number): string {
  if (start > 0 && isLowSurrogate(text.charCodeAt(start))) start++;
  if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
  // eslint-disable-next-line no-control-regex
  let body = text.slice(start, end).replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ").replace(/ {2,}/g, " ");
  body = body.trim();
  return `${start > 0 ? "…" : ""}${body}${end < text.length ? "…" : ""}`;
}

/** Up to `max` windows of at most `chars` code units, best-covering first chosen, in text order. */
export function snippets(text: string, marks: Mark[], chars: number, max: number): string[] {
  if (marks.length === 0) return text.length === 0 ? [] : [renderWindow(text, 0, Math.min(text.length, chars))];
  marks.sort((a, b) => a.start - b.start);
  const windows: Array<{ start: number; end: number; score: number }> = [];
  for (const mark of marks) {
    const span = Math.min(mark.end - mark.start, chars);
    const lead = Math.floor((chars - span) / 3);
    let start = Math.max(0, mark.start - lead);
    const end = Math.min(text.length, start + chars);
    start = Math.max(0, end - chars);
    const keys = new Set<number>();
    let score = 0;
    for (const other of marks) {
      if (other.start >= end) break;
      if (other.start >= start && other.end <= end) {
        if (!keys.has(other.key)) score += other.key === -1 ? 5 : 2;
        keys.add(other.key);
        score += 0.1;
      }
    }
    windows.push({ start, end, score });
  }
  windows.sort((a, b) => b.score - a.score || a.start - b.start);
  const chosen: Array<{ start: number; end: number }> = [];
  for (const window of windows) {
    if (chosen.length >= max) break;
    if (chosen.some((c) => window.start < c.end && c.start < window.end)) continue;
    chosen.push(window);
  }
  chosen.sort((a, b) => a.start - b.start);
  return chosen.map((c) => renderWindow(text, c.start, c.end)).filter((s) => s.length > 0);
}
