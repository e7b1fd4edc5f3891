// A cold search again with typos corrected: the corrected query keeps the first query's other
// terms, whose counts in every chunk the first scan already has (a term's count depends only on
// its token and how it matches, not on the query around it). Only the terms the first query
// lacked are scanned for (the prefilter then skips most parts), and the two counts are merged
// chunk by chunk: the same candidates, counts and statistics a full scan would give.

import type { HistoryMessage } from "../../history/types.ts";
import type { ToolVisibility } from "../../history/tool-visibility.ts";
import type { DocFilter } from "../types.ts";
import type { ParsedQuery, QueryTerm } from "../text/query.ts";
import { countSession, type Candidate, type ScanCounts, type ScanOptions } from "./scan.ts";

/** What a term's count in a text depends on. */
function countKey(term: QueryTerm): string {
  return `${term.token}\u0000${term.cjk ? 1 : 0}`;
}

/** Whether the first scan read exactly these messages the same way. */
export function sameScan(first: ScanCounts, messages: readonly HistoryMessage[], visibility: ToolVisibility): boolean {
  if (first.visibility !== visibility || first.messages.length !== messages.length) return false;
  for (let i = 0; i < messages.length; i++) if (first.messages[i] !== messages[i]) return false;
  return true;
}

/**
 * `terms` counted over the first scan's messages, reusing its counts of the terms it shares with
 * them. `accept` must be the first scan's filter (same request). Undefined past the deadline.
 */
export async function rescanCounts(
  first: ScanCounts,
  terms: ParsedQuery["terms"],
  accept: DocFilter,
  options: ScanOptions = {},
): Promise<ScanCounts | undefined> {
  const firstIndex = new Map(first.terms.map((term, t) => [countKey(term), t]));
  const added: QueryTerm[] = [];
  // Per term: its index in the first scan's terms (>= 0), or -1 - its index in `added`.
  const source = terms.map((term) => {
    const t = firstIndex.get(countKey(term));
    if (t !== undefined) return t;
    added.push(term);
    return -added.length;
  });
  let more: ScanCounts | undefined;
  if (added.length > 0) {
    more = await countSession(first.messages, first.visibility, added, first.tuning, accept, { ...options, parts: first.parts });
    if (!more) return undefined;
  }
  const pick = (fromFirst: readonly number[], fromMore: readonly number[] | undefined): number[] =>
    source.map((s) => (s >= 0 ? (fromFirst[s] ?? 0) : (fromMore?.[-1 - s] ?? 0)));
  const none: number[] = [];
  const candidates: Candidate[] = [];
  const a = first.candidates;
  const b = more?.candidates ?? [];
  // Both lists are in scan order: merged by chunk number, a chunk kept when it holds a term.
  for (let i = 0, j = 0; i < a.length || j < b.length; ) {
    const seq = Math.min(a[i]?.seq ?? Infinity, b[j]?.seq ?? Infinity);
    const x = a[i]?.seq === seq ? a[i++] : undefined;
    const y = b[j]?.seq === seq ? b[j++] : undefined;
    const tfs = pick(x?.tfs ?? none, y?.tfs);
    if (tfs.some((tf) => tf > 0)) candidates.push({ ...(x ?? y)!, tfs });
  }
  return {
    messages: first.messages,
    visibility: first.visibility,
    terms,
    tuning: first.tuning,
    candidates,
    df: pick(first.df, more?.df),
    docs: first.docs,
    length: first.length,
    counted: more?.counted ?? 0,
    parts: first.parts,
  };
}
