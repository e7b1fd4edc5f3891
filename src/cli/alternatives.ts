// `--alt`: other phrasings of a search's query (history_search's and history_sessions'
// `alternatives`), checked as the tools check them, their errors naming the flag; and which
// phrasings found a result, said in words.

import { z } from "zod";
import { HistoryError } from "../history/errors.ts";
import { MAX_ALTERNATIVES, MAX_QUERY_CHARS } from "../search/api.ts";
import { textList } from "../tools/params.ts";
import { parseArgs as parseToolArgs } from "../tools/run.ts";
import { type Parsed, UsageError } from "./argv.ts";
import type { Io } from "./io.ts";

/** The flag, as FlagSpec declares it (a repeated value). */
export const ALT_FLAG = "alt";

const ALTERNATIVES = z.object({ alternatives: textList(MAX_ALTERNATIVES, MAX_QUERY_CHARS) });

/** A tool's message on `alternatives` or `alternatives[i]`, naming the flag: `--alt 2 must not be empty`. */
function namingFlag(message: string): string {
  return message.replace(/^alternatives(?:\[(\d+)\])?/, (_, i: string | undefined) => (i === undefined ? "--alt" : `--alt ${Number(i) + 1}`));
}

/** The --alt values as the tools take `alternatives` (trimmed, checked); undefined when none is given. */
export function alternativesFlag(parsed: Parsed): string[] | undefined {
  const given = parsed.lists.get(ALT_FLAG);
  if (given === undefined) return undefined;
  try {
    return parseToolArgs(ALTERNATIVES, { alternatives: given }).alternatives;
  } catch (error) {
    throw error instanceof HistoryError ? new UsageError(namingFlag(error.message)) : error;
  }
}

/** The search's answer; its errors on an alternative (in the query's mode: a bad pattern, no searchable word) name the flag. */
export async function withAltErrors<T>(search: Promise<T>): Promise<T> {
  try {
    return await search;
  } catch (error) {
    if (error instanceof HistoryError && error.message.startsWith("alternatives")) throw new UsageError(namingFlag(error.message));
    throw error;
  }
}

/** Phrasings by number (0 the query, n the n-th --alt), for people: `query, alt 2`. */
export function phrasingNames(numbers: readonly number[]): string {
  return numbers.map((n) => (n === 0 ? "query" : `alt ${n}`)).join(", ");
}

/** The lines after a search's or a listing's results: the next page, the alternatives that found nothing, what was not searched. */
export function answerFooter(
  io: Io,
  json: { next_offset?: number; unmatched?: number[]; partial?: boolean; unsearched_sessions?: number },
  alternatives: readonly string[] | undefined,
): void {
  if (json.next_offset !== undefined) io.out(io.style("dim", `… more: --offset ${json.next_offset}`));
  const unmatched = unmatchedLine(json.unmatched, alternatives ?? []);
  if (unmatched) io.out(io.style("dim", unmatched));
  if (json.partial) io.err(`partial: ${json.unsearched_sessions} sessions not searched`);
}

/** The line saying which alternatives found nothing (`unmatched`), or undefined when all found something. */
export function unmatchedLine(unmatched: readonly number[] | undefined, alternatives: readonly string[]): string | undefined {
  if (!unmatched || unmatched.length === 0) return undefined;
  return `found nothing: ${unmatched.map((n) => (n === 0 ? "the query" : `alt ${n} ${JSON.stringify(alternatives[n - 1])}`)).join(", ")}`;
}
