// One session's search: filters, then the index when it is built and (nearly) current, else the
// cold scan (while the index builds in the background); literal/regex always scan.

import type { ToolVisibility } from "../history/tool-visibility.ts";
import type { SessionView } from "../history/view.ts";
import type { IndexedSession } from "./index/build.ts";
import { patternScan, type Matcher } from "./scan/pattern.ts";
import { rankMessages, type MessageResult } from "./rank/rank.ts";
import { scanSession } from "./scan/scan.ts";
import { maybeYield } from "./scheduler.ts";
import type { DocFilter, ScoredDoc, SearchFilters } from "./scored.ts";
import { keywordMarks, patternMarks } from "./text/snippets.ts";
import type { ParsedQuery } from "./text/tokenize.ts";

/** An index this far behind (code units of new text) is updated in the background; we scan. */
export const MAX_WAIT_CHARS = 256 * 1024;

export type Query = { kind: "keyword"; text: string; parsed: ParsedQuery } | { kind: "pattern"; matcher: Matcher };

export interface ResultLimits {
  limit: number;
  maxHits: number;
  maxSnippets: number;
  snippetChars: number;
}

export interface SessionSearchOptions {
  visibility: ToolVisibility;
  /** Results that get hits and snippets right away (the rest carry pendingHits); all by default. */
  hitsFor?: number;
  /** The session's index holder; absent = scan only. */
  indexed?: IndexedSession;
  deadline?: number;
  /** Cancels the scan at its next slice. */
  signal?: AbortSignal;
}

export interface SessionSearchResult {
  results: MessageResult[];
  /** How the answer was computed. */
  via: "index" | "scan";
  /** True when the deadline passed before the session was searched through. */
  timedOut?: boolean;
}

/** The request's filters on a message and chunk (type, role, tool, time), nothing else. */
function attributeFilter(filters: SearchFilters): DocFilter {
  return (message, type, tool) => {
    if (!filters.types.has(type)) return false;
    if (filters.role !== undefined && message.role !== filters.role) return false;
    if (filters.tool !== undefined && tool !== filters.tool) return false;
    if (filters.after !== undefined && !(message.created !== undefined && message.created > filters.after)) return false;
    if (filters.before !== undefined && !(message.created !== undefined && message.created < filters.before)) return false;
    return true;
  };
}

export async function searchSession(
  view: SessionView,
  query: Query,
  filters: SearchFilters,
  limits: ResultLimits,
  options: SessionSearchOptions,
): Promise<SessionSearchResult> {
  // Scans walk the visible messages themselves, so only the filters apply.
  const accept = attributeFilter(filters);
  const visible = () => view.messages.slice(0, view.visibleEnd);
  let docs: ScoredDoc[] | undefined;
  let via: "index" | "scan" = "scan";
  const indexed = options.indexed;
  const pending = indexed ? indexed.update(view.messages) : Infinity;
  if (query.kind === "keyword") {
    if (indexed && indexed.built && pending <= MAX_WAIT_CHARS) {
      await indexed.current();
      if (indexed.built) {
        via = "index";
        docs = [];
        for (const hit of indexed.index.search(query.text, filters, view)) {
          const { meta, message, score } = hit;
          const doc: ScoredDoc = { message, partId: meta.partId, type: meta.type, start: meta.start, end: meta.end, score };
          if (meta.tool !== undefined) doc.tool = meta.tool;
          docs.push(doc);
        }
      }
    }
    if (!docs) docs = await scanSession(visible(), options.visibility, query.parsed, accept, { deadline: options.deadline, signal: options.signal });
  } else {
    docs = await patternScan(visible(), options.visibility, query.matcher, accept, { deadline: options.deadline, signal: options.signal });
  }
  if (!docs) return { results: [], via, timedOut: true };
  // Ranking is one synchronous stretch: start it on a fresh slice.
  if (via === "scan") await maybeYield();
  const marks =
    query.kind === "keyword" ? (text: string) => keywordMarks(text, query.parsed) : (_: string, doc: ScoredDoc) => patternMarks(doc.spans);
  const results = rankMessages(docs, {
    ...limits,
    visibility: options.visibility,
    parsed: query.kind === "keyword" ? query.parsed : undefined,
    marks,
    ...(options.hitsFor !== undefined ? { hitsFor: options.hitsFor } : {}),
  });
  return { results, via };
}
