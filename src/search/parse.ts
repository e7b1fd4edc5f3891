// Stage 1 of a search, parse: the request's query and alternatives checked and compiled once, in
// the request's mode (keyword, literal, regex), and its page start checked. Every later stage
// takes the compiled phrasings; nothing after this reads the request's strings.

import { ArgumentError } from "../history/errors.ts";
import type { RegexRunner } from "./scan/regex-runner.ts";
import { literalMatcher, type Matcher, regexMatcher } from "./scan/pattern.ts";
import { type ParsedQuery, parseQuery, type QueryTerm } from "./text/query.ts";
import type { SearchTuning } from "./tuning.ts";

/** A phrasing compiled: its words as terms, or a literal or regex pattern. */
export type Query = { kind: "keyword"; text: string; parsed: ParsedQuery } | { kind: "pattern"; matcher: Matcher };

export const MAX_QUERY_CHARS = 500;
/** Other phrasings a search takes beside its query (history_search's `alternatives`). */
export const MAX_ALTERNATIVES = 3;
/**
 * The deepest page start: a page is a slice of one ranking of offset + limit + 1 results (the
 * one past the page says whether there is more), so the depth a search ranks stays bounded.
 */
export const MAX_OFFSET = 1_000;

/** The request's page start, checked. */
export function pageStart(offset: number | undefined): number {
  if (offset === undefined) return 0;
  if (!Number.isInteger(offset) || offset < 0 || offset > MAX_OFFSET)
    throw new ArgumentError(`offset must be an integer from 0 to ${MAX_OFFSET} (got ${offset})`);
  return offset;
}

/** `query` compiled in the request's mode; `name`: the parameter errors name. */
function compileQuery(query: string, mode: { literal?: boolean; regex?: boolean }, regexRunner: RegexRunner, tuning: SearchTuning, name = "query"): Query {
  if (query.trim().length === 0) throw new ArgumentError(`${name} must be a non-empty string`);
  if (query.length > MAX_QUERY_CHARS) throw new ArgumentError(`${name} must be at most ${MAX_QUERY_CHARS} characters (got ${query.length})`);
  if (mode.literal && mode.regex) throw new ArgumentError("literal and regex cannot both be true");
  if (mode.literal) return { kind: "pattern", matcher: literalMatcher(query) };
  if (mode.regex) {
    try {
      return { kind: "pattern", matcher: regexMatcher(query, regexRunner) };
    } catch (error) {
      // pattern.ts words its errors for `regex`: an alternative's says which one.
      if (name !== "query" && error instanceof ArgumentError) throw new ArgumentError(`${name}: ${error.message}`);
      throw error;
    }
  }
  const parsed = parseQuery(query, tuning);
  if (parsed.terms.length === 0) {
    throw new ArgumentError(
      `${name} has no searchable word: single letters and punctuation are not indexed; use a longer word, or literal=true for an exact substring`,
    );
  }
  return { kind: "keyword", text: query, parsed };
}

/** A request's phrasings: the query's, then each alternative's not repeating an earlier one. */
export interface Phrasings {
  queries: Query[];
  /** Per query, its number: 0 the query, 1… the alternative's place in `alternatives` plus one. */
  numbers: number[];
}

/**
 * The query and its alternatives compiled in the request's mode. An alternative repeating the
 * query or an earlier alternative (trimmed) is searched once, under the first one's number.
 */
export function compilePhrasings(
  request: { query: string; alternatives?: readonly string[]; literal?: boolean; regex?: boolean },
  regexRunner: RegexRunner,
  tuning: SearchTuning,
): Phrasings {
  const phrasings: Phrasings = { queries: [compileQuery(request.query, request, regexRunner, tuning)], numbers: [0] };
  const alternatives: unknown = request.alternatives;
  if (alternatives === undefined) return phrasings;
  if (!Array.isArray(alternatives) || alternatives.length > MAX_ALTERNATIVES) {
    const got = Array.isArray(alternatives) ? `${alternatives.length} strings` : typeof alternatives;
    throw new ArgumentError(`alternatives must be a list of at most ${MAX_ALTERNATIVES} strings (got ${got})`);
  }
  const seen = new Set([request.query.trim()]);
  alternatives.forEach((alternative: unknown, i) => {
    const name = `alternatives[${i}]`;
    if (typeof alternative !== "string") throw new ArgumentError(`${name} must be a string (got ${alternative === null ? "null" : typeof alternative})`);
    const query = compileQuery(alternative.trim(), request, regexRunner, tuning, name);
    if (seen.has(alternative.trim())) return;
    seen.add(alternative.trim());
    phrasings.queries.push(query);
    phrasings.numbers.push(i + 1);
  });
  return phrasings;
}

/** What a term's counts and postings depend on (scan/rescan.ts's key). */
export function termKey(term: QueryTerm): string {
  return `${term.token}\u0000${term.cjk ? 1 : 0}`;
}

/** The distinct terms (by what their counts depend on) of the keyword phrasings: each session is read and counted once for all of them. */
export function phrasingTerms(queries: readonly Query[]): QueryTerm[] {
  const seen = new Map<string, QueryTerm>();
  for (const query of queries) {
    if (query.kind !== "keyword") continue;
    for (const term of query.parsed.terms) if (!seen.has(termKey(term))) seen.set(termKey(term), term);
  }
  return [...seen.values()];
}
