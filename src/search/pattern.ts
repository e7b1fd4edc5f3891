// literal=true and regex=true searches: exact substrings or a JavaScript regex, bounded so a
// pathological pattern or a huge session cannot stall the host. Bounds: patterns with nested
// unbounded quantifiers are refused; a regex runs on one chunk (≤ ~4 KB) at a time, stops after
// MAX_MATCHES_PER_DOC matches, and the whole scan yields between slices and stops at a deadline.

import { ArgumentError } from "../history/errors.ts";
import type { HistoryMessage } from "../history/types.ts";
import type { ToolVisibility } from "../history/tool-visibility.ts";
import { messageDocs } from "./documents.ts";
import { fold } from "./normalize.ts";
import { maybeYield, now, sliceSpent, type DocFilter, type ScoredDoc } from "./scored.ts";

export const MAX_MATCHES_PER_DOC = 100;

export type Span = [start: number, end: number];

export interface Matcher {
  /** Match spans in `text`, at most `limit`. */
  find(text: string, limit: number): Span[];
}

export function literalMatcher(query: string): Matcher {
  const needle = fold(query);
  return {
    find(text, limit) {
      const folded = fold(text);
      const spans: Span[] = [];
      let from = 0;
      while (spans.length < limit) {
        const at = folded.indexOf(needle, from);
        if (at < 0) break;
        spans.push([at, at + needle.length]);
        from = at + Math.max(1, needle.length);
      }
      return spans;
    },
  };
}

/** Refuses patterns whose run time can explode: a quantified group holding an unbounded quantifier. */
export function checkRegexSafety(source: string): void {
  const stack: boolean[] = [false];
  let i = 0;
  const quantifierAt = (k: number): { unbounded: boolean; length: number } | undefined => {
    const ch = source[k];
    if (ch === "*" || ch === "+") return { unbounded: true, length: 1 };
    if (ch === "?") return { unbounded: false, length: 1 };
    if (ch === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(k));
      if (m) return { unbounded: m[2] !== undefined && (m[3] === "" || Number(m[3]) > 1), length: m[0].length };
    }
    return undefined;
  };
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === "\\") {
      i += 2;
    } else if (ch === "[") {
      i++;
      while (i < source.length && source[i] !== "]") i += source[i] === "\\" ? 2 : 1;
      i++;
    } else if (ch === "(") {
      stack.push(false);
      i++;
    } else if (ch === ")") {
      const inner = stack.length > 1 ? stack.pop()! : false;
      i++;
      const q = quantifierAt(i);
      if (q?.unbounded && inner) {
        throw new ArgumentError(
          "regex has a repeated group that itself repeats (like (a+)+ or (.*)*), which can run for minutes; rewrite it without nested repetition",
        );
      }
      if (inner || q?.unbounded) stack[stack.length - 1] = true;
      continue;
    } else {
      i++;
    }
    const q = quantifierAt(i);
    if (q) {
      if (q.unbounded) stack[stack.length - 1] = true;
      i += q.length;
      if (source[i] === "?") i++;
    }
  }
}

export function regexMatcher(source: string): Matcher {
  checkRegexSafety(source);
  let regex: RegExp;
  try {
    regex = new RegExp(source, "gi");
  } catch (error) {
    throw new ArgumentError(`regex is not a valid JavaScript regular expression: ${(error as Error).message}`);
  }
  return {
    find(text, limit) {
      const spans: Span[] = [];
      regex.lastIndex = 0;
      while (spans.length < limit) {
        const m = regex.exec(text);
        if (!m) break;
        spans.push([m.index, m.index + m[0].length]);
        if (m[0].length === 0) regex.lastIndex++;
      }
      return spans;
    },
  };
}

/**
 * Scores every accepted chunk holding a match: more matches score higher, damped.
 * Returns undefined when the deadline passes before the scan ends.
 */
export async function patternScan(
  messages: readonly HistoryMessage[],
  visibility: ToolVisibility,
  matcher: Matcher,
  accept: DocFilter,
  options: { deadline?: number } = {},
): Promise<ScoredDoc[] | undefined> {
  const out: ScoredDoc[] = [];
  for (const message of messages) {
    for (const doc of messageDocs(message, visibility)) {
      if (sliceSpent()) {
        await maybeYield();
        if (options.deadline !== undefined && now() > options.deadline) return undefined;
      }
      if (!accept(message, doc.type, doc.tool)) continue;
      const spans = matcher.find(doc.text, MAX_MATCHES_PER_DOC);
      if (spans.length === 0) continue;
      const scored: ScoredDoc = {
        message,
        partId: doc.partId,
        type: doc.type,
        start: doc.start,
        end: doc.end,
        score: 1 + Math.log1p(spans.length),
        text: doc.text,
      };
      if (doc.tool !== undefined) scored.tool = doc.tool;
      out.push(scored);
    }
  }
  return out;
}
