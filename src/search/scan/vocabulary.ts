// Typo corrections on the cold path: the vocabulary a correction is chosen from (text/typos.ts),
// read from the session's text itself with the index's tokenizer and chunks, so a session searched
// before its index is built is corrected as it will be once it is. A pass over every chunk: it
// runs only for a query holding a word no document holds.

import type { HistoryMessage } from "../../history/types.ts";
import type { ToolVisibility } from "../../history/tool-visibility.ts";
import { maybeYield, now, sliceSpent } from "../../util/scheduler.ts";
import { docText, partChunks, partPieces } from "../text/documents.ts";
import { fold, isAscii } from "../text/normalize.ts";
import { MAX_TOKEN, MIN_TOKEN, TokenSpans, humpAt, isWordChar, runEnd, tokenSpans } from "../text/tokenize.ts";
import { isLetters, maxEdits, termListVocabulary, type Vocabulary } from "../text/typos.ts";
import type { ScanOptions } from "./scan.ts";

/** A term seen by the pass: in how many chunks, and the last chunk counted. */
interface Seen {
  df: number;
  lastDoc: number;
}

/** The letters a term of ASCII text may start with (`letters`, lower case a–z), in either case. */
export function termStartPattern(letters: string): RegExp {
  return new RegExp(`[${letters}${letters.toUpperCase()}]`, "g");
}

/**
 * The tokenizer's terms of ASCII `text` that start with a letter `starts` (termStartPattern) finds:
 * each as [start, end), a word whole (from a word start) and its camelCase parts, as tokenSpans
 * gives them (the same terms, found without walking the rest of the text).
 */
export function termsStartingAt(text: string, starts: RegExp, visit: (start: number, end: number) => void): void {
  starts.lastIndex = 0;
  // test() instead of exec(): no match array per letter found. The pattern is one character, so
  // a match starts just before lastIndex.
  while (starts.test(text)) {
    const start = starts.lastIndex - 1;
    const wordStart = start === 0 || !isWordChar(text, start - 1);
    // Inside a word, only an upper-case letter can start a term (a camelCase hump).
    if (!wordStart && text.charCodeAt(start) > 0x5a) continue;
    const wordEnd = runEnd(text, start);
    let partEnd = start + 1;
    while (partEnd < wordEnd && !humpAt(text, partEnd, wordEnd)) partEnd++;
    if (wordStart) {
      term(start, wordEnd, visit);
      // Split at a hump: its first part is a term too.
      if (partEnd < wordEnd) term(start, partEnd, visit);
    } else if (humpAt(text, start, wordEnd)) term(start, partEnd, visit);
  }
}

/** A word or part is a term at MIN_TOKEN to MAX_TOKEN code units (one starting with a letter). */
function term(start: number, end: number, visit: (start: number, end: number) => void): void {
  if (end - start >= MIN_TOKEN && end - start <= MAX_TOKEN) visit(start, end);
}

/**
 * The terms of the messages' chunks that may correct the words (their first letters, their
 * lengths within maxEdits), with their chunks; undefined when the deadline passes first.
 */
export async function scanVocabulary(
  messages: readonly HistoryMessage[],
  visibility: ToolVisibility,
  words: readonly string[],
  chunkChars: number,
  options: Pick<ScanOptions, "deadline" | "signal" | "parts"> = {},
): Promise<Vocabulary | undefined> {
  const minLength = Math.min(...words.map((word) => word.length - maxEdits(word.length)));
  const maxLength = Math.max(...words.map((word) => word.length + maxEdits(word.length)));
  // A correction keeps the word's first letter (correctionDistance): other terms are not kept.
  const firstLetters = new Set(words.map((word) => word.charCodeAt(0)));
  const seen = new Map<string, Seen>();
  const spans = new TokenSpans();
  let doc = 0;
  // A candidate is letters a–z only (isLetters): in ASCII text it starts with one of the words'
  // first letters, so only those places are looked at; other text is tokenized whole.
  const letters = String.fromCharCode(...[...firstLetters].filter((code) => code >= 97 && code <= 122));
  const starts = letters.length > 0 ? termStartPattern(letters) : undefined;
  const seeTerm = (term: string): void => {
    if (!firstLetters.has(term.charCodeAt(0)) || !isLetters(term)) return;
    const entry = seen.get(term);
    if (!entry) seen.set(term, { df: 1, lastDoc: doc });
    else if (entry.lastDoc !== doc) {
      entry.df++;
      entry.lastDoc = doc;
    }
  };
  const count = (piece: string): void => {
    if (isAscii(piece)) {
      // Folding ASCII is lower-casing: only the candidates are, not the whole piece.
      if (starts)
        termsStartingAt(piece, starts, (start, end) => {
          if (end - start >= minLength && end - start <= maxLength) seeTerm(piece.slice(start, end).toLowerCase());
        });
      return;
    }
    const folded = fold(piece);
    tokenSpans(piece, spans);
    for (let i = 0; i < spans.size; i += 2) {
      const start = spans.data[i]!;
      const end = spans.data[i + 1]!;
      if (end - start >= minLength && end - start <= maxLength) seeTerm(folded.slice(start, end));
    }
  };
  let k = 0;
  for (const message of messages) {
    for (const part of message.parts) {
      const found = options.parts?.[k++] ?? partPieces(part, visibility);
      if (!found) continue;
      for (const chunk of partChunks(found, chunkChars)) {
        doc++;
        // A chunk's pieces end at word boundaries (the index tokenizes them joined).
        if (chunk.whole) for (const piece of chunk.pieces) count(piece);
        else count(docText(chunk));
      }
    }
    if (sliceSpent()) {
      await maybeYield();
      options.signal?.throwIfAborted();
      if (options.deadline !== undefined && now() > options.deadline) return undefined;
    }
  }
  const entries = [...seen];
  return termListVocabulary(
    entries.map(([term]) => term),
    (key) => entries[key]![1].df,
  );
}
