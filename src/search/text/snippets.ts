// Short windows of a chunk around its matches: several per hit, each at most `chars` long,
// control characters and line breaks flattened, never a split surrogate pair.

import { fold } from "./normalize.ts";
import { countTerm, type ParsedQuery } from "./query.ts";
import { isHighSurrogate, isLowSurrogate } from "../../history/text.ts";
import { lowerBound } from "../../util/lower-bound.ts";

export interface Mark {
  start: number;
  end: number;
  /** Which term matched, by its index; -1 for the whole phrase (windows covering more distinct keys are preferred). */
  key: number;
}

const MAX_MARKS = 400;

/** Where a keyword query matches a chunk: each term, and the whole phrase (key -1). */
export function keywordMarks(text: string, parsed: ParsedQuery): Mark[] {
  const folded = fold(text);
  const marks: Mark[] = [];
  if (parsed.phrase?.mayOccur(folded)) {
    // Over the fold, which for ASCII text is the text lower-cased: the ASCII pattern's offsets.
    const pattern = parsed.phrase.forText(text, true).pattern;
    pattern.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = pattern.exec(folded)) && marks.length < 50) {
      marks.push({ start: m.index, end: m.index + m[0].length, key: -1 });
      if (m[0].length === 0) pattern.lastIndex++;
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
  let body = text
    .slice(start, end)
    .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ")
    .replace(/ {2,}/g, " ");
  body = body.trim();
  return `${start > 0 ? "…" : ""}${body}${end < text.length ? "…" : ""}`;
}

/**
 * Up to `max` windows of at most `chars` code units, best-covering first chosen, in text order.
 * A window is placed around each mark and scored by the marks it covers (more for each distinct
 * key); the best window wins, ties going to the earlier start, then to the earlier mark. A chunk
 * may carry hundreds of marks: each window reads only the marks inside it, and nothing is
 * allocated per mark. `outputFrom`: where a tool call's output starts in the text; a window
 * around a mark there is cut from the output alone and wins a tie with one of the call, and a
 * window of the call is shown only for a query word the output lacks (the output is what the
 * call found; the call often just repeats the query's words).
 */
export function snippets(text: string, marks: Mark[], chars: number, max: number, outputFrom?: number): string[] {
  if (marks.length === 0) return text.length === 0 ? [] : [renderWindow(text, 0, Math.min(text.length, chars))];
  marks.sort((a, b) => a.start - b.start);
  const count = marks.length;
  const starts = new Int32Array(count);
  const ends = new Int32Array(count);
  const scores = new Float64Array(count);
  let maxKey = -1;
  for (const mark of marks) if (mark.key > maxKey) maxKey = mark.key;
  // Per key (offset by one: the phrase is -1), the last window that counted it.
  const countedIn = new Int32Array(maxKey + 2).fill(-1);
  // Per key, whether the output holds it.
  const inOutputKeys = new Uint8Array(maxKey + 2);
  if (outputFrom !== undefined) for (const mark of marks) if (mark.start >= outputFrom) inOutputKeys[mark.key + 1] = 1;
  for (let w = 0; w < count; w++) {
    const mark = marks[w]!;
    const span = Math.min(mark.end - mark.start, chars);
    const lead = Math.floor((chars - span) / 3);
    const inOutput = outputFrom !== undefined && mark.start >= outputFrom;
    const from = inOutput ? outputFrom : 0;
    const end = Math.min(text.length, Math.max(from, mark.start - lead) + chars);
    const start = Math.max(from, end - chars);
    // Half a distinct key: it breaks a tie, never outweighs a window covering more of the query.
    let score = inOutput ? 1 : 0;
    let addsToOutput = inOutput || outputFrom === undefined;
    for (let o = lowerBound(marks.length, (i) => marks[i]!.start < start); o < count; o++) {
      const other = marks[o]!;
      if (other.start >= end) break;
      if (other.end > end) continue;
      if (countedIn[other.key + 1] !== w) {
        countedIn[other.key + 1] = w;
        score += other.key === -1 ? 5 : 2;
      }
      if (inOutputKeys[other.key + 1] === 0) addsToOutput = true;
      score += 0.1;
    }
    starts[w] = start;
    ends[w] = end;
    scores[w] = addsToOutput ? score : Number.NEGATIVE_INFINITY;
  }
  // Best first, skipping a window that overlaps one chosen: a window passed over overlaps a
  // chosen one for good, so picking the best of the rest each time gives the same choice as one pass in order.
  const chosen: number[] = [];
  const taken = new Uint8Array(count);
  while (chosen.length < max) {
    let best = -1;
    for (let w = 0; w < count; w++) {
      if (taken[w] === 1 || scores[w] === Number.NEGATIVE_INFINITY) continue;
      if (best >= 0 && !(scores[w]! > scores[best]! || (scores[w] === scores[best] && starts[w]! < starts[best]!))) continue;
      let overlaps = false;
      for (const c of chosen) if (starts[w]! < ends[c]! && starts[c]! < ends[w]!) overlaps = true;
      if (overlaps) taken[w] = 1;
      else best = w;
    }
    if (best < 0) break;
    taken[best] = 1;
    chosen.push(best);
  }
  chosen.sort((a, b) => starts[a]! - starts[b]!);
  const rendered: string[] = [];
  for (const c of chosen) {
    const snippet = renderWindow(text, starts[c]!, ends[c]!);
    if (snippet.length > 0) rendered.push(snippet);
  }
  return rendered;
}
