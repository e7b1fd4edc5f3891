// A query as terms: the same tokens as indexing (tokenize.ts), grouped by query word. A word and
// its parts (humps, a version's numbers) weigh as one concept, and a natural-language word also
// matches the other forms of its stem at a lower weight (stem.ts), and function words beside
// content words are glue, not searched at all (function-words.ts). A path or name
// typed in a query (words joined by / . _ - : \) is one query word, kept whole as a compound for
// ranking to find as written (rank/compound.ts).

import { BoundedMap } from "../../util/bounded-map.ts";
import { CJK, SEP, charClass, fold, isAscii } from "./normalize.ts";
import { isFunctionWord } from "./function-words.ts";
import { intentsOfWord, queryIntent, type IntentKind, type QueryIntent } from "./query-intent.ts";
import { queryLanguage } from "./language.ts";
import { isNaturalWord, stemVariants } from "./stem.ts";
import type { SearchTuning } from "../tuning.ts";
import { TokenSpans, dottedEnd, isTermAt, isWordChar, pushTerms, runEnd } from "./tokenize.ts";

export interface QueryTerm {
  /** Folded term as the index stores it. */
  token: string;
  /** Which word of the query it comes from (coverage counts words, not terms). */
  group: number;
  /** True for a CJK bigram or character (any occurrence counts). */
  cjk: boolean;
  /** Share of its word's weight: 1 alone; a word and its parts split one, other forms of a stem less. */
  weight: number;
  /** Another form of a natural-language word (its stem's, stem.ts), not the word as typed. */
  variant?: true;
}

/**
 * A path, dotted or snake_case name of the query (`django/db/models/fields/related.py`,
 * `__init__.py`, `pytest_collect_file`): its words are one query word, and a text holding them
 * joined as written holds the compound (ranking prefers it; rank/compound.ts).
 */
interface Compound {
  /** Folded compound as written, leading joiners included (`__init__.py`). */
  text: string;
  group: number;
}

export interface ParsedQuery {
  terms: QueryTerm[];
  /** Query words coverage counts (function words beside content words are not). */
  groups: number;
  /** The whole phrase: the query's words in order, little in between (two or more terms). */
  phrase?: Phrase;
  compounds: Compound[];
  /** What the query's wording asks for: a command run, a change made (text/query-intent.ts); absent for neither. */
  intent?: QueryIntent;
  /** The tuning the query was parsed with, which every stage ranking it reads (tuning.ts). */
  readonly tuning: SearchTuning;
}

/**
 * A query's whole phrase as patterns, each compiled when first asked for: a search of ASCII text
 * with an ASCII query never needs the Unicode one, the costliest to compile (several ms in a
 * fresh process, once per query).
 */
export class Phrase {
  /** Whether every word is ASCII, so the ASCII pattern exists. */
  readonly ascii: boolean;
  private readonly patterns: Array<RegExp | undefined> = [];

  constructor(private readonly runs: readonly string[]) {
    this.ascii = runs.every(isAscii);
  }

  /** Over folded text; `everyMatch` (flag g) for a shared pattern whose lastIndex the caller sets first. */
  folded(everyMatch = false): RegExp {
    const k = everyMatch ? 1 : 0;
    return (this.patterns[k] ??= new RegExp(this.runs.map(escapeRegExp).join("[^\\p{L}\\p{N}]{0,3}"), everyMatch ? "gu" : "u"));
  }

  /**
   * Case-insensitive, for ASCII text only (this.ascii): it matches there, at the same offsets,
   * where `folded` matches the fold. Without the u flag (several times faster in JSC), as under
   * /iu a few non-ASCII letters (ſ, K) match ASCII ones; in ASCII, \p{L} is A-Z a-z and \p{N} 0-9.
   */
  asciiText(everyMatch = false): RegExp {
    const k = everyMatch ? 3 : 2;
    return (this.patterns[k] ??= new RegExp(this.runs.map(escapeRegExp).join("[^A-Za-z0-9]{0,3}"), everyMatch ? "gi" : "i"));
  }

  /** The pattern for `text`, and whether it runs over the text itself (else over its fold). */
  forText(text: string, everyMatch = false): { pattern: RegExp; overText: boolean } {
    if (this.ascii && isAscii(text)) return { pattern: this.asciiText(everyMatch), overText: true };
    return { pattern: this.folded(everyMatch), overText: false };
  }

  /**
   * False when `folded` (a text's fold) cannot hold the phrase: a match holds each word as
   * written in the fold. Checked before a pattern runs over folded text, so text lacking a word
   * never compiles the Unicode one.
   */
  mayOccur(folded: string): boolean {
    return this.runs.every((run) => folded.includes(run));
  }
}

/** Whether the query's whole phrase occurs in `text` (folded), without folding ASCII-only text. */
export function hasPhrase(parsed: ParsedQuery, text: string): boolean {
  const phrase = parsed.phrase;
  if (!phrase) return false;
  if (phrase.ascii && isAscii(text)) return phrase.asciiText().test(text);
  const folded = fold(text);
  return phrase.mayOccur(folded) && phrase.folded().test(folded);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Terms of a query: the same tokens as indexing, grouped by query word, deduplicated. */
export function parseQuery(query: string, tuning: SearchTuning): ParsedQuery {
  // Parsed queries are immutable (an every-match phrase pattern's lastIndex is set by each use): the
  // last few are kept, so a repeated query does not recompile its patterns; per tuning object.
  let parsedQueries = parsedPerTuning.get(tuning);
  if (!parsedQueries) parsedPerTuning.set(tuning, (parsedQueries = new BoundedMap(MAX_PARSED_QUERIES)));
  const cached = parsedQueries.get(query);
  if (cached) return cached;
  const parsed = parseQueryUncached(query, tuning);
  parsedQueries.set(query, parsed);
  return parsed;
}

const MAX_PARSED_QUERIES = 64;
const parsedPerTuning = new WeakMap<SearchTuning, BoundedMap<string, ParsedQuery>>();
const querySpans = new TokenSpans();

/** Characters that join words into one path or name: `a/b.py`, `a_b`, `a-b`, `a::b`, `a\\b`. */
function isJoiner(code: number): boolean {
  return code === 0x5f || code === 0x2e || code === 0x2f || code === 0x2d || code === 0x3a || code === 0x5c;
}

/** End of the compound whose first word starts at `i` and the number of words in it. */
function compoundAt(text: string, i: number): { end: number; words: number } {
  let end = dottedEnd(text, i, runEnd(text, i));
  let words = 1;
  for (;;) {
    let k = end;
    while (k < text.length && isJoiner(text.charCodeAt(k))) k++;
    if (k === end || k >= text.length || !isWordChar(text, k)) return { end, words };
    end = dottedEnd(text, k, runEnd(text, k));
    words++;
  }
}

function parseQueryUncached(query: string, tuning: SearchTuning): ParsedQuery {
  const { stems, functionWords, wholeShare, languages } = tuning.query;
  const folded = fold(query);
  // A German or Portuguese query's function words are glue too (language.ts).
  const detected = languages.on ? queryLanguage(folded) : "en";
  const language = detected === "en" ? undefined : detected;
  const runs: string[] = [];
  // Terms of each query word with their weights, whether the word is a function word, and the
  // compound (path or name) it belongs to (-1: none).
  const words: Array<{
    tokens: Array<[token: string, weight: number, variant?: boolean]>;
    cjk: boolean;
    glue: boolean;
    compound: number;
    intents?: readonly IntentKind[];
  }> = [];
  const compoundTexts: string[] = [];
  const n = query.length;
  let i = 0;
  // End of the compound being read: its words make one query word (each keeps its weight, as
  // splitting it let the rest of the query outweigh a path).
  let compoundEnd = -1;
  while (i < n) {
    const cls = charClass(query.charCodeAt(i));
    if (cls === SEP) {
      i++;
      continue;
    }
    if (i >= compoundEnd && cls !== CJK) {
      const compound = compoundAt(query, i);
      if (compound.words > 1) {
        compoundEnd = compound.end;
        let start = i;
        while (start > 0 && isJoiner(query.charCodeAt(start - 1))) start--;
        compoundTexts.push(folded.slice(start, compound.end));
      }
    }
    const compound = i < compoundEnd ? compoundTexts.length - 1 : -1;
    let j = i + 1;
    const tokens: Array<[token: string, weight: number, variant?: boolean]> = [];
    const cjk = cls === CJK;
    let glue = false;
    if (cjk) {
      while (j < n && charClass(query.charCodeAt(j)) === CJK) j++;
      if (j - i === 1) tokens.push([folded[i]!, 1]);
      else for (let k = i; k + 1 < j; k++) tokens.push([folded.slice(k, k + 2), 1]);
    } else {
      const runEndAt = runEnd(query, i);
      j = dottedEnd(query, i, runEndAt);
      const spans = querySpans;
      spans.size = 0;
      pushTerms(spans, query, i, runEndAt, j);
      // The whole word takes half the word's weight and its parts share the other half, so an
      // identifier counts as one concept, not one plus one per hump.
      const parts = spans.size / 2 - 1;
      for (let k = 0; k < spans.size; k += 2) {
        tokens.push([folded.slice(spans.data[k]!, spans.data[k + 1]!), parts === 0 ? 1 : k === 0 ? wholeShare : (1 - wholeShare) / parts]);
      }
      // A word of a path or name is never glue (`the_end`, `lib/in/x.py`).
      glue = functionWords.on && compound < 0 && spans.size === 2 && isFunctionWord(tokens[0]![0], language);
      if (stems.on && spans.size === 2 && !glue && isNaturalWord(query, i, j)) {
        for (const form of stemVariants(folded.slice(i, j), stems.max)) tokens.push([form, stems.weight, true]);
      }
    }
    runs.push(folded.slice(i, j));
    // A word of a path or name states no intent (`run_tests`, `fix/a.py`).
    const intents = !cjk && !glue && compound < 0 && tokens.length > 0 ? intentsOfWord(tokens[0]![0]) : [];
    words.push(intents.length > 0 ? { tokens, cjk, glue, compound, intents } : { tokens, cjk, glue, compound });
    i = j;
  }
  // Function words are glue only beside a content word: a query of glue alone is searched as typed.
  const content = words.some((word) => !word.glue);
  const terms: QueryTerm[] = [];
  const compounds: Compound[] = [];
  const seen = new Set<string>();
  let groups = 0;
  let lastCompound = -1;
  const intentWords: Array<{ kinds: readonly IntentKind[]; group: number }> = [];
  words.forEach((word, w) => {
    // Glue beside a content word is not searched: weighed at all, it ranked both halves of the
    // eval lower, and a function word's postings are the longest there are.
    if (content && word.glue) return;
    let added = false;
    // A word typed again (`CSS` after `spotter.css`) adds none of its other forms either: they
    // would make a query word of their own that only they can match.
    const repeated = word.tokens.every(([token, , variant]) => variant || seen.has(token));
    for (const [token, weight, variant] of word.tokens) {
      if (seen.has(token) || (variant && repeated)) continue;
      seen.add(token);
      const term: QueryTerm = { token, group: groups, cjk: word.cjk, weight };
      if (variant) term.variant = true;
      terms.push(term);
      added = true;
    }
    if (word.compound >= 0 && word.compound !== lastCompound) {
      compounds.push({ text: compoundTexts[word.compound]!, group: groups });
      lastCompound = word.compound;
    }
    // A word, or the compound's last word, ends the query word (if any of its terms is new).
    if (word.compound >= 0 && words[w + 1]?.compound === word.compound) return;
    if (!added) {
      if (terms[terms.length - 1]?.group === groups) groups++;
      else if (word.compound >= 0 && compounds[compounds.length - 1]?.group === groups) compounds.pop();
      return;
    }
    if (word.intents) intentWords.push({ kinds: word.intents, group: groups });
    groups++;
  });
  const parsed: ParsedQuery = { terms, groups, compounds, tuning };
  const intent = queryIntent(intentWords);
  if (intent) parsed.intent = intent;
  if (terms.length >= 2 && runs.length >= 1) parsed.phrase = new Phrase(runs);
  return parsed;
}

/**
 * Occurrences of a query term in one text, with exactly the tokenizer's boundaries:
 * a whole word, or one camelCase hump of a word; CJK terms match anywhere inside a CJK run.
 */
export function countTerm(text: string, folded: string, term: QueryTerm, positions?: number[]): number {
  const token = term.token;
  const len = token.length;
  let count = 0;
  let from = 0;
  for (;;) {
    const at = folded.indexOf(token, from);
    if (at < 0) break;
    if (term.cjk || isTermAt(text, at, at + len)) {
      count++;
      positions?.push(at);
    }
    from = at + 1;
  }
  return count;
}
