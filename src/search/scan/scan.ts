// Cold search: one pass over a session's text scoring only the query's terms, with the same
// tokens and BM25 as the index, so a session's first query need not wait for an index build.
// Runs in slices that yield to the event loop; gives up (undefined) past an optional deadline.

import type { HistoryMessage } from "../../history/types.ts";
import type { ToolVisibility } from "../../history/tool-visibility.ts";
import { queryWeights, scoreCounts, type CollectionStats } from "../rank/bm25.ts";
import {
  chunkCount,
  docText,
  partChunks,
  partPieces,
  partSearchText,
  searchablePieces,
  textChunkCount,
  type DocPieces,
  type PartPieces,
} from "../text/documents.ts";
import { fold, isAscii } from "../text/normalize.ts";
import { maybeYield, now, sliceSpent } from "../../util/scheduler.ts";
import type { DocFilter, ScoredDoc } from "../types.ts";
import { countTerm, escapeRegExp, type ParsedQuery } from "../text/query.ts";
import type { SearchTuning } from "../tuning.ts";
import { type TermNesting, termNesting } from "../text/term-nesting.ts";
import { isTermAt } from "../text/tokenize.ts";

interface TermFinders extends TermNesting {
  terms: ParsedQuery["terms"];
  /** The ASCII terms without a gate (none holds another's token). */
  roots: number[];
  /**
   * Those terms' tokens as one case-insensitive every-match (flag g) pattern (undefined for none): one pass
   * over a text finds them all, and as no root holds another, at most one matches at a place.
   */
  rootFinder: RegExp | undefined;
  /** Scratch: 1 where a term's token does not occur in the text being counted. */
  absent: Uint8Array;
  /** Scratch: each term's count in the text being counted. */
  counts: Int32Array;
}

export function termFinders(terms: ParsedQuery["terms"]): TermFinders {
  const { gates, order, within } = termNesting(terms);
  const roots = terms.map((_, t) => t).filter((t) => gates[t]! < 0 && isAscii(terms[t]!.token));
  const rootFinder = roots.length > 0 ? new RegExp(roots.map((t) => escapeRegExp(terms[t]!.token)).join("|"), "gi") : undefined;
  return { terms, roots, rootFinder, gates, order, within, absent: new Uint8Array(terms.length), counts: new Int32Array(terms.length) };
}

/** Whether ASCII `text` holds the lower-case ASCII `token` at `start`, ignoring case. */
function holdsAt(text: string, start: number, token: string): boolean {
  if (start < 0 || start + token.length > text.length) return false;
  for (let k = 0; k < token.length; k++) {
    const c = text.charCodeAt(start + k);
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== token.charCodeAt(k)) return false;
  }
  return true;
}

/**
 * Counts on ASCII text in one pass for all terms without a gate (roots): every occurrence of a
 * term holding a root's token contains an occurrence of it (at its offset), so the terms holding
 * it are only checked where it occurs (a stemmed word's forms cost nothing more than the stem).
 */
function countAscii(text: string, query: TermFinders): void {
  const { terms, roots, rootFinder, within, counts } = query;
  counts.fill(0);
  if (!rootFinder) return;
  rootFinder.lastIndex = 0;
  // test() instead of exec(): no match array per occurrence. The root matched is the one whose
  // token ends where the match does (no root is another's suffix); the next search starts one
  // past its start, so occurrences overlapping it are found too.
  while (rootFinder.test(text)) {
    const matchEnd = rootFinder.lastIndex;
    let r = roots[0]!;
    for (let k = 1; k < roots.length && !holdsAt(text, matchEnd - terms[r]!.token.length, terms[r]!.token); k++) r = roots[k]!;
    const at = matchEnd - terms[r]!.token.length;
    if (isTermAt(text, at, matchEnd)) counts[r]!++;
    // Indexed, not for-of: an iterator per occurrence found (Node, 5 MB a cold project search).
    const holding = within[r]!;
    for (let h = 0; h < holding.length; h++) {
      const t = holding[h]![0];
      const term = terms[t]!;
      const start = at - holding[h]![1];
      if (holdsAt(text, start, term.token) && isTermAt(text, start, start + term.token.length)) counts[t]!++;
    }
    rootFinder.lastIndex = at + 1;
  }
}

/** Adds the query terms' occurrences in `text`, times `times`, to `tfs` (made when the first one is found). */
export function countTerms(text: string, query: TermFinders, tfs: number[] | undefined, times = 1): number[] | undefined {
  const { terms, gates, order, absent, counts } = query;
  // On ASCII-only text, ASCII terms are found case-insensitively in the text itself (no fold).
  if (isAscii(text)) {
    countAscii(text, query);
  } else {
    const folded = fold(text);
    absent.fill(0);
    counts.fill(0);
    for (const t of order) {
      const gate = gates[t]!;
      if ((gate >= 0 && absent[gate] === 1) || !folded.includes(terms[t]!.token)) {
        absent[t] = 1;
        continue;
      }
      counts[t] = countTerm(text, folded, terms[t]!);
    }
  }
  for (let t = 0; t < terms.length; t++) {
    const tf = counts[t]!;
    if (tf === 0) continue;
    tfs ??= new Array<number>(terms.length).fill(0);
    tfs[t] = tfs[t]! + tf * times;
  }
  return tfs;
}

export interface ScanOptions {
  /** performance.now() time after which the scan stops and returns undefined. */
  deadline?: number;
  /** Filled with the session's statistics (project scope scores every session against their sum). */
  stats?: CollectionStats;
  /** Cancellation: the scan rejects with the signal's reason at its next slice. */
  signal?: AbortSignal | undefined;
  /** The same messages' parts as an earlier scan read them (ScanCounts.parts), so none is read again. */
  parts?: ScanCounts["parts"];
}

/**
 * Non-ASCII characters whose fold is never an ASCII letter or digit (CJK punctuation, kana, Han,
 * Hangul): text made of these and ASCII holds an ASCII term in its fold only where the ASCII
 * part holds it case-insensitively. scan.test.ts checks every code point of the class.
 */
export const FOLDS_OFF_ASCII = "\\u3000-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uac00-\\ud7af";

/**
 * A pattern that matches every chunk in which a query term may occur: an ASCII term
 * case-insensitively (on ASCII text that is exactly an occurrence in the folded text), or a
 * non-ASCII character that may fold onto ASCII (accented or full-width letters). A query with a
 * non-ASCII term lets every non-ASCII character through: such a term needs one.
 */
export function quickFilter(parsed: Pick<ParsedQuery, "terms">): RegExp | undefined {
  if (parsed.terms.length === 0) return undefined;
  const ascii = parsed.terms.map((term) => term.token).filter(isAscii);
  // A token holding another one adds nothing to the alternation: the inner one matches first.
  const needed = ascii.filter((token) => !ascii.some((inner) => inner !== token && token.includes(inner)));
  const escaped = needed.map((token) => `|${escapeRegExp(token)}`);
  const passes = ascii.length === parsed.terms.length ? `[^\\x00-\\x7f${FOLDS_OFF_ASCII}]` : "[^\\x00-\\x7f]";
  return new RegExp(`${passes}${escaped.join("")}`, "i");
}

/** A chunk holding a query term that the request's filters accept, with its counts. */
export interface Candidate {
  /** The chunk's number in the scan (chunks of every part, in message order). */
  seq: number;
  message: HistoryMessage;
  doc: DocPieces;
  tfs: number[];
  /** The chunk's text when the scan made it (a whole tool part is left in pieces). */
  text: string | undefined;
}

/**
 * What a scan counted, before scoring: kept so a search again of the same messages with more
 * terms (typo corrections, scan/rescan.ts) counts only those.
 */
export interface ScanCounts {
  messages: readonly HistoryMessage[];
  visibility: ToolVisibility;
  terms: ParsedQuery["terms"];
  /** The tuning the chunks were cut and counted with, which scoreScan scores with. */
  tuning: SearchTuning;
  /** In scan order. */
  candidates: Candidate[];
  df: number[];
  docs: number;
  length: number;
  /** Chunks whose text was searched for the terms (the others were ruled out by their part). */
  counted: number;
  /**
   * Every part's searchable pieces, one entry per part of the messages in order (undefined: none,
   * or a text the prefilter ruled out, read again from its part when needed): a pass again over
   * the same messages (typo lookup, search again) reads them from here instead of rendering each
   * tool call's input again.
   */
  parts: Array<PartPieces | undefined>;
}

/** What a scan for a query's terms compiles, kept per terms array: a project search scans hundreds of sessions for the same terms. */
const scanSetups = new WeakMap<ParsedQuery["terms"], { quick: RegExp | undefined; finders: TermFinders }>();

function scanSetup(terms: ParsedQuery["terms"]): { quick: RegExp | undefined; finders: TermFinders } {
  let setup = scanSetups.get(terms);
  if (!setup) scanSetups.set(terms, (setup = { quick: quickFilter({ terms }), finders: termFinders(terms) }));
  return setup;
}

/** Counts the terms in every chunk of the messages; undefined past the deadline. */
export async function countSession(
  messages: readonly HistoryMessage[],
  visibility: ToolVisibility,
  terms: ParsedQuery["terms"],
  tuning: SearchTuning,
  accept: DocFilter,
  options: ScanOptions = {},
): Promise<ScanCounts | undefined> {
  const { chunkChars, inputWeight } = tuning;
  // Shared by concurrent scans: a finder's state lives only within one synchronous countTerms.
  const { quick, finders: query } = scanSetup(terms);
  const df = new Array<number>(terms.length).fill(0);
  const candidates: Candidate[] = [];
  let docs = 0;
  let counted = 0;
  let totalLength = 0;
  const parts: Array<PartPieces | undefined> = [];
  const known = options.parts;
  for (const message of messages) {
    for (const part of message.parts) {
      let found = known?.[parts.length];
      if (found === undefined && part.kind !== "tool") {
        const searchable = partSearchText(part, visibility);
        // A text the prefilter rules out is counted by its length alone, made into no pieces (its
        // text is the part's own, read again if asked): most parts of a project search are such.
        if (searchable && searchable.text.length > 0 && quick && !quick.test(searchable.text)) {
          parts.push(undefined);
          totalLength += searchable.text.length;
          docs += textChunkCount(searchable.text, chunkChars);
          continue;
        }
        found = searchable && searchablePieces(part.id, searchable);
      } else found ??= partPieces(part, visibility);
      parts.push(found);
      if (!found) continue;
      totalLength += found.total;
      // Most parts hold no query term: one native pass over their pieces rules them out, with
      // no chunk made and nothing folded. No term spans two pieces (signature, "\n---\n",
      // output): a piece's ends are word boundaries, as the separator is.
      let maybe = quick === undefined;
      if (quick) {
        for (const piece of found.pieces) {
          if (quick.test(piece)) {
            maybe = true;
            break;
          }
        }
      }
      if (!maybe) {
        docs += chunkCount(found, chunkChars);
        continue;
      }
      for (const doc of partChunks(found, chunkChars)) {
        const seq = docs++;
        counted++;
        // A chunk that is a whole part is read piece by piece, so counts add up exactly and the
        // part's text is never joined. A tool call's input (the first piece) counts inputWeight times (tuning.ts).
        let tfs: number[] | undefined;
        let text: string | undefined;
        if (doc.whole) {
          for (let k = 0; k < doc.pieces.length; k++) {
            const piece = doc.pieces[k]!;
            if (!quick || quick.test(piece)) tfs = countTerms(piece, query, tfs, k === 0 && doc.input > 0 ? inputWeight : 1);
          }
          if (doc.pieces.length === 1) text = doc.pieces[0];
        } else {
          text = docText(doc);
          if (quick && !quick.test(text)) tfs = undefined;
          else if (doc.input === 0) tfs = countTerms(text, query, tfs);
          else {
            tfs = countTerms(text.slice(0, doc.input), query, tfs, inputWeight);
            tfs = countTerms(text.slice(doc.input), query, tfs);
          }
        }
        if (tfs) for (let t = 0; t < terms.length; t++) if (tfs[t]! > 0) df[t]!++;
        if (tfs && accept(message, doc.type, doc.tool)) candidates.push({ seq, message, doc, tfs, text });
      }
    }
    if (sliceSpent()) {
      await maybeYield();
      options.signal?.throwIfAborted();
      if (options.deadline !== undefined && now() > options.deadline) return undefined;
    }
  }
  return { messages, visibility, terms, tuning, candidates, df, docs, length: totalLength, counted, parts };
}

/** The counted chunks scored with BM25 against the counts' own statistics (filled into options.stats). */
export function scoreScan(counts: ScanCounts, options: Pick<ScanOptions, "stats"> = {}): ScoredDoc[] {
  const { docs, length: totalLength, df, terms, tuning } = counts;
  if (options.stats) {
    options.stats.docs = docs;
    options.stats.length = totalLength;
    options.stats.df = df;
  }
  if (docs === 0) return [];
  const avg = totalLength / docs;
  const weights = queryWeights({ docs, length: totalLength, df }, terms, tuning);
  return counts.candidates.map(({ message, doc, tfs, text }) => {
    const length = doc.end - doc.start;
    const scored: ScoredDoc = {
      message,
      partId: doc.partId,
      type: doc.type,
      start: doc.start,
      end: doc.end,
      score: scoreCounts(tfs, length, weights, avg),
      tfs,
    };
    if (text !== undefined) scored.text = text;
    if (doc.tool !== undefined) scored.tool = doc.tool;
    if (doc.input > 0) scored.input = doc.input;
    return scored;
  });
}

export async function scanSession(
  messages: readonly HistoryMessage[],
  visibility: ToolVisibility,
  parsed: ParsedQuery,
  accept: DocFilter,
  options: ScanOptions = {},
): Promise<ScoredDoc[] | undefined> {
  const counts = await countSession(messages, visibility, parsed.terms, parsed.tuning, accept, options);
  return counts && scoreScan(counts, options);
}
