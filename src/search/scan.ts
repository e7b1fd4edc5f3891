// Cold search: one pass over a session's text scoring only the query's terms, with the same
// tokens and BM25 as the index, so a session's first query need not wait for an index build.
// Runs in slices that yield to the event loop; gives up (undefined) past an optional deadline.

import type { HistoryMessage } from "../history/types.ts";
import type { ToolVisibility } from "../history/tool-visibility.ts";
import { coverageFactor, groupBit, idf, popcount, termScore } from "./bm25.ts";
import { docText, messageDocPieces, type DocPieces } from "./documents.ts";
import { fold } from "./normalize.ts";
import { maybeYield, now, sliceSpent, type DocFilter, type ScoredDoc } from "./scored.ts";
import { countTerm, countTermAscii, escapeRegExp, type ParsedQuery } from "./tokenize.ts";

const NON_ASCII = /[^\x00-\x7f]/;

interface Candidate {
  message: HistoryMessage;
  doc: DocPieces;
  tfs: number[];
  /** The chunk's text when the scan made it (a whole tool part is left in pieces). */
  text: string | undefined;
}

/** Adds the query terms' occurrences in `text` to `tfs` (made when the first one is found). */
function countTerms(text: string, terms: ParsedQuery["terms"], finders: Array<RegExp | undefined>, tfs: number[] | undefined): number[] | undefined {
  // On ASCII-only text, ASCII terms are found case-insensitively in the text itself (no fold).
  const ascii = !NON_ASCII.test(text);
  const folded = ascii ? "" : fold(text);
  for (let t = 0; t < terms.length; t++) {
    const term = terms[t]!;
    let tf: number;
    if (ascii) {
      const finder = finders[t];
      if (!finder) continue;
      tf = countTermAscii(text, term, finder);
    } else {
      if (!folded.includes(term.token)) continue;
      tf = countTerm(text, folded, term);
    }
    if (tf === 0) continue;
    tfs ??= new Array<number>(terms.length).fill(0);
    tfs[t] = tfs[t]! + tf;
  }
  return tfs;
}

export interface ScanOptions {
  /** performance.now() time after which the scan stops and returns undefined. */
  deadline?: number;
}

/**
 * A pattern that matches every chunk in which a query term may occur: any non-ASCII character
 * (folding may then map accented or full-width letters onto ASCII ones), or an ASCII term
 * case-insensitively (on ASCII text that is exactly an occurrence in the folded text).
 * A term with a non-ASCII character can only occur in a chunk that has one.
 */
export function quickFilter(parsed: ParsedQuery): RegExp | undefined {
  const ascii = parsed.terms.map((term) => term.token).filter((token) => !NON_ASCII.test(token));
  if (parsed.terms.length === 0) return undefined;
  const escaped = ascii.map((token) => `|${escapeRegExp(token)}`);
  return new RegExp(`[^\\x00-\\x7f]${escaped.join("")}`, "i");
}

export async function scanSession(
  messages: readonly HistoryMessage[],
  visibility: ToolVisibility,
  parsed: ParsedQuery,
  accept: DocFilter,
  options: ScanOptions = {},
): Promise<ScoredDoc[] | undefined> {
  const terms = parsed.terms;
  const quick = quickFilter(parsed);
  const finders = terms.map((term) => (NON_ASCII.test(term.token) ? undefined : new RegExp(escapeRegExp(term.token), "gi")));
  const df = new Array<number>(terms.length).fill(0);
  const candidates: Candidate[] = [];
  let docs = 0;
  let totalLength = 0;
  for (const message of messages) {
    for (const pieces of messageDocPieces(message, visibility)) {
      docs++;
      totalLength += pieces.end - pieces.start;
      // Most chunks hold no query term: one native pass rules them out without folding. A chunk
      // that is a whole tool part is read piece by piece (signature, output): no term spans the
      // "\n---\n" between them, and a piece's ends are word boundaries as the separator is, so
      // counts add up exactly and the part's text is never joined.
      const segments = pieces.whole ? pieces.pieces : [docText(pieces)];
      let tfs: number[] | undefined;
      for (const segment of segments) {
        if (quick && !quick.test(segment)) continue;
        tfs = countTerms(segment, terms, finders, tfs);
      }
      if (tfs) for (let t = 0; t < terms.length; t++) if (tfs[t]! > 0) df[t]!++;
      const doc = pieces;
      if (tfs && accept(message, doc.type, doc.tool)) candidates.push({ message, doc, tfs, text: segments.length === 1 ? segments[0]! : undefined });
      if (sliceSpent()) {
        await maybeYield();
        if (options.deadline !== undefined && now() > options.deadline) return undefined;
      }
    }
  }
  if (docs === 0) return [];
  const avg = totalLength / docs;
  const idfs = df.map((d) => idf(docs, d));
  return candidates.map(({ message, doc, tfs, text }) => {
    const length = doc.end - doc.start;
    let score = 0;
    let mask = 0;
    for (let t = 0; t < tfs.length; t++) {
      const tf = tfs[t]!;
      if (tf === 0) continue;
      score += termScore(Math.min(tf, 255), idfs[t]!, length, avg);
      mask |= groupBit(terms[t]!.group);
    }
    const scored: ScoredDoc = {
      message,
      partId: doc.partId,
      type: doc.type,
      start: doc.start,
      end: doc.end,
      score: score * coverageFactor(popcount(mask), parsed.groups),
    };
    if (text !== undefined) scored.text = text;
    if (doc.tool !== undefined) scored.tool = doc.tool;
    return scored;
  });
}
