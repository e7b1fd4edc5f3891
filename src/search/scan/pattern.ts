// literal=true and regex=true searches: exact substrings or a JavaScript regex, bounded so a
// pathological pattern or a huge session cannot stall the host. Bounds: patterns with nested
// unbounded quantifiers are refused up front; a regex runs in a worker (regex-runner.ts) on
// batches of chunks (≤ ~4 KB each), is stopped when a batch overruns, and keeps at most
// MAX_MATCHES_PER_DOC matches per chunk; the scan yields between slices and stops at a deadline.

import { ArgumentError } from "../../history/errors.ts";
import type { HistoryMessage } from "../../history/types.ts";
import type { ToolVisibility } from "../../history/tool-visibility.ts";
import { messageDocs } from "../text/documents.ts";
import { fold } from "../text/normalize.ts";
import type { RegexRunner, Span } from "./regex-runner.ts";
import { maybeYield, now, sliceSpent } from "../../util/scheduler.ts";
import type { DocFilter, ScoredDoc } from "../types.ts";
import type { ScanOptions } from "./scan.ts";

const MAX_MATCHES_PER_DOC = 100;
/** Characters of chunk text sent to the regex worker at once. */
const BATCH_CHARS = 256 * 1024;
/** A batch that takes longer holds a pathological pattern: it is stopped and the search refused. */
const REGEX_BATCH_TIMEOUT_MS = 2000;

export interface Matcher {
  /** Match spans in each text, at most `limit` per text. */
  findMany(texts: string[], limit: number): Promise<Span[][]>;
}

function literalSpans(needle: string, text: string, limit: number): Span[] {
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
}

export function literalMatcher(query: string): Matcher {
  const needle = fold(query);
  return { findMany: async (texts, limit) => texts.map((text) => literalSpans(needle, text, limit)) };
}

/** Refuses patterns whose run time can explode: a quantified group holding an unbounded quantifier. */
function checkRegexSafety(source: string): void {
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

export function regexMatcher(source: string, runner: RegexRunner, timeoutMs: number = REGEX_BATCH_TIMEOUT_MS): Matcher {
  checkRegexSafety(source);
  try {
    // Compiling never runs the pattern; it only checks the syntax here, where errors are cheap.
    new RegExp(source, "gi");
  } catch (error) {
    throw new ArgumentError(`regex is not a valid JavaScript regular expression: ${(error as Error).message}`);
  }
  return { findMany: (texts, limit) => runner.find(source, texts, limit, timeoutMs) };
}

/**
 * Scores every accepted chunk holding a match: more matches score higher, damped. Chunks go to
 * the matcher in batches. Returns undefined when the deadline passes before the scan ends.
 */
export async function patternScan(
  messages: readonly HistoryMessage[],
  visibility: ToolVisibility,
  matcher: Matcher,
  chunkChars: number,
  accept: DocFilter,
  options: ScanOptions = {},
): Promise<ScoredDoc[] | undefined> {
  const out: ScoredDoc[] = [];
  let batch: ScoredDoc[] = [];
  let batchChars = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const spans = await matcher.findMany(
      batch.map((doc) => doc.text!),
      MAX_MATCHES_PER_DOC,
    );
    batch.forEach((doc, i) => {
      const found = spans[i] ?? [];
      if (found.length === 0) return;
      doc.spans = found;
      doc.score = 1 + Math.log1p(found.length);
      out.push(doc);
    });
    batch = [];
    batchChars = 0;
  };
  for (const message of messages) {
    for (const doc of messageDocs(message, visibility, chunkChars)) {
      if (sliceSpent()) {
        await maybeYield();
        options.signal?.throwIfAborted();
        if (options.deadline !== undefined && now() > options.deadline) return undefined;
      }
      if (!accept(message, doc.type, doc.tool)) continue;
      const candidate: ScoredDoc = { message, partId: doc.partId, type: doc.type, start: doc.start, end: doc.end, score: 0, text: doc.text };
      if (doc.tool !== undefined) candidate.tool = doc.tool;
      batch.push(candidate);
      batchChars += doc.text.length;
      if (batchChars >= BATCH_CHARS) await flush();
    }
  }
  await flush();
  if (options.deadline !== undefined && now() > options.deadline) return undefined;
  return out;
}
