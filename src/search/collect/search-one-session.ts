// One session's search: filters, then the index when it is built and (nearly) current, else the
// cold scan (while the index builds in the background); literal/regex always scan. Collecting
// and ranking are separate steps, so project scope can rank every session against shared statistics.

import type { ToolVisibility } from "../../history/tool-visibility.ts";
import type { SessionView } from "../../history/view.ts";
import type { IndexBuilder } from "../index/build.ts";
import type { Query } from "../parse.ts";
import { patternScan } from "../scan/pattern.ts";
import { emptyStats, type CollectionStats } from "../rank/bm25.ts";
import { Candidates } from "../rank/candidates.ts";
import { candidateGroups, type Group, indexHoldsDepth, textReader } from "../rank/rank.ts";
import { rescore } from "../rank/rescore.ts";
import { scanVocabulary } from "../scan/vocabulary.ts";
import { rescanCounts, sameScan } from "../scan/rescan.ts";
import { countSession, scoreScan, type ScanCounts } from "../scan/scan.ts";
import { maybeYield, yieldToLoop } from "../../util/scheduler.ts";
import type { DocFilter, ScoredDoc, SearchFilters } from "../types.ts";
import { keywordMarks, patternMarks } from "../text/snippets.ts";
import type { ParsedQuery } from "../text/query.ts";
import type { SearchTuning } from "../tuning.ts";
import { type NearestTerm, nearestTerms } from "../text/typos.ts";

/** An index this far behind (code units of new text) is updated in the background; we scan. */
const MAX_WAIT_CHARS = 256 * 1024;

export interface ResultLimits {
  limit: number;
  maxHits: number;
  maxSnippets: number;
  snippetChars: number;
}

export interface SessionSearchOptions {
  visibility: ToolVisibility;
  /** What chunks are cut and scored with (tuning.ts). */
  tuning: SearchTuning;
  /** The builder of the session's index; absent = scan only. */
  builder?: IndexBuilder;
  deadline?: number;
  /**
   * Wait for this session's first index build, when one is under way, instead of scanning beside
   * it. One session's search only: a project search's budget is not spent on one session's build.
   */
  waitForBuild?: boolean;
  /**
   * A cold scan starts, and its ranking follows, each on a fresh turn of the event loop (one
   * session's search: the host then waits on one phase at a time, not on its read, scan and
   * ranking together). A project search yields only when a slice is spent: a forced turn per
   * session would cost it its budget.
   */
  turnPerPhase?: boolean;
  /** Cancels the scan at its next slice. */
  signal?: AbortSignal;
  /**
   * How deep the ranking of this session alone goes (a page's end and one past it): the index
   * gives the messages that can reach it. Absent (sessions ranked together, whose scores the
   * shared statistics change), every matching message.
   */
  depth?: number;
  /**
   * The session's documents from this request's first pass, when this is its search again with
   * typos corrected: a scan of the same messages counts only the terms that pass lacked.
   */
  first?: CollectedSession;
  /**
   * A request with alternatives: every phrasing's terms, counted in one scan of the session the
   * first phrasing scanned for (kept here), each phrasing's counts picked from it (scan/rescan.ts).
   */
  sharedScan?: SharedScan;
}

/** One scan of a session for the terms of every phrasing of a request (SessionSearchOptions.sharedScan). */
export interface SharedScan {
  terms: ParsedQuery["terms"];
  counts?: ScanCounts;
}

/** The request's filters on a message and chunk (type, role, tool, time), nothing else. */
export function attributeFilter(filters: SearchFilters): DocFilter {
  return (message, type, tool) => {
    if (!filters.types.has(type)) return false;
    if (filters.role !== undefined && message.role !== filters.role) return false;
    if (filters.tool !== undefined && tool !== filters.tool) return false;
    if (filters.after !== undefined && !(message.created !== undefined && message.created > filters.after)) return false;
    if (filters.before !== undefined && !(message.created !== undefined && message.created < filters.before)) return false;
    return true;
  };
}

/**
 * How many times as many messages the index is asked for again while its best ones may not hold
 * the depth. Asked for every match at once instead, a query many messages match alike ranked them
 * all on every warm search: bench:host's "token bucket limiter" on its 6.1 MB session (2,626
 * matching chunks) took 16 to 33 ms, held by the second ask (580 chunks) in 4.5 to 6.7; on the
 * 30.2 MB session 32 to 48 ms, held by the third (2,436 chunks) in 16 to 22. Each ask is one
 * search of the index: asks growing fourfold add at most a third of the last one's cost.
 */
const ASK_GROWTH = 4;

/**
 * The index's documents for the query that the filters accept among the messages the view shows:
 * of its best messages, as many as can reach the ranking's first `depth` (rank.ts indexHoldsDepth:
 * asked for 3 × depth + 20 first, then for ASK_GROWTH times as many while one left out could
 * still place); every matching message without a depth.
 */
function indexDocs(builder: IndexBuilder, parsed: ParsedQuery, filters: SearchFilters, view: SessionView, depth: number | undefined): ScoredDoc[] {
  let asked = depth === undefined ? undefined : depth * 3 + 20;
  for (;;) {
    const docs = builder.index.search(parsed, filters, view, asked).map(({ meta, message, score }) => {
      const doc: ScoredDoc = { message, partId: meta.partId, type: meta.type, start: meta.start, end: meta.end, score };
      if (meta.tool !== undefined) doc.tool = meta.tool;
      if (meta.input !== undefined) doc.input = meta.input;
      return doc;
    });
    if (depth === undefined || asked === undefined || indexHoldsDepth(docs, asked, depth, parsed)) return docs;
    asked *= ASK_GROWTH;
  }
}

/** A session's matching documents, scored against its own statistics, before ranking. */
export interface CollectedSession {
  docs: ScoredDoc[];
  via: "index" | "scan";
  /** Keyword queries: the statistics the documents were scored with. */
  stats?: CollectionStats;
  /** A keyword scan's counts, before scoring (a search again with corrected typos reuses them). */
  scan?: ScanCounts;
  timedOut?: boolean;
}

/**
 * The view a search sees: the own view as browsing sees it, and in the calling session also
 * without its latest turn, which is live in the model's context (the message that asked the
 * question, the replies since) with or without a compaction.
 */
function searchableView(view: SessionView): SessionView {
  if (!view.self) return view;
  const last = view.turnNumbers[view.turnNumbers.length - 1] ?? 0;
  if (last === 0) return view;
  let start = view.messages.length;
  while (start > 0 && view.turnNumbers[start - 1] === last) start--;
  return start < view.visibleEnd ? { ...view, visibleEnd: start } : view;
}

/** A session's documents for the query, scored against the session's own statistics. */
export async function collectSession(sessionView: SessionView, query: Query, filters: SearchFilters, options: SessionSearchOptions): Promise<CollectedSession> {
  const view = searchableView(sessionView);
  // Scans walk the visible messages themselves, so only the filters apply.
  const accept = attributeFilter(filters);
  const visible = () => view.messages.slice(0, view.visibleEnd);
  let docs: ScoredDoc[] | undefined;
  let via: "index" | "scan" = "scan";
  let stats: CollectionStats | undefined;
  let scan: ScanCounts | undefined;
  const builder = options.builder;
  const pending = builder ? builder.update(view.messages) : Infinity;
  if (query.kind === "keyword") {
    // A session searched again is likely searched more: the rest of its first build costs a few
    // scans once, then every search is an index lookup. The first search scans alone (its build
    // waits, so the answer comes at scan speed); one that finds the build with its turn waits for it.
    // A view hiding more messages (the caller's live context) than it shows scans what it shows:
    // the index's statistics would need the hidden part counted out, which costs more.
    const mostlyHidden = view.messages.length - view.visibleEnd > view.visibleEnd;
    const wait = !mostlyHidden && builder && (builder.built ? pending <= MAX_WAIT_CHARS : options.waitForBuild === true && builder.underWay);
    if (wait) {
      await builder.current();
      if (builder.built) {
        via = "index";
        docs = indexDocs(builder, query.parsed, filters, view, options.depth);
        stats = builder.index.stats(query.parsed);
        // The index holds every message of the view, the caller's live context too: its
        // statistics are then those of the searchable messages alone, as the scan counts them.
        if (view.visibleEnd < view.messages.length) {
          const hidden = await countSession(view.messages.slice(view.visibleEnd), options.visibility, query.parsed.terms, options.tuning, () => false);
          if (hidden) stats = { docs: stats.docs - hidden.docs, length: stats.length - hidden.length, df: stats.df.map((df, t) => df - hidden.df[t]!) };
        }
      }
    }
    if (!docs) {
      if (options.turnPerPhase) {
        await yieldToLoop();
        options.signal?.throwIfAborted();
      }
      stats = emptyStats(query.parsed.terms.length);
      const messages = visible();
      const scanOptions = { deadline: options.deadline, signal: options.signal };
      const shared = options.sharedScan;
      let first = options.first?.scan ?? shared?.counts;
      if (shared && !options.first?.scan && !(shared.counts && sameScan(shared.counts, messages, options.visibility))) {
        first = await countSession(messages, options.visibility, shared.terms, options.tuning, accept, scanOptions);
        if (!first) return { docs: [], via, timedOut: true };
        // Kept for the other phrasings without the parts' pieces (most of a scan's memory): they
        // only pick their terms' counts from it. This phrasing's typo pass may read them.
        shared.counts = { ...first, parts: [] };
      }
      scan =
        first && sameScan(first, messages, options.visibility)
          ? await rescanCounts(first, query.parsed.terms, accept, scanOptions)
          : await countSession(messages, options.visibility, query.parsed.terms, options.tuning, accept, scanOptions);
      docs = scan && scoreScan(scan, { stats });
    }
  } else {
    docs = await patternScan(visible(), options.visibility, query.matcher, options.tuning.chunkChars, accept, {
      deadline: options.deadline,
      signal: options.signal,
    });
  }
  if (!docs) return { docs: [], via, timedOut: true };
  // Ranking is one synchronous stretch: start it on a fresh slice.
  if (via === "scan") await (options.turnPerPhase ? yieldToLoop() : maybeYield());
  const collected: CollectedSession = { docs, via };
  if (stats) collected.stats = stats;
  if (scan) collected.scan = scan;
  return collected;
}

/**
 * The terms of the session's documents nearest to each word (typos), where the search found them:
 * its index, or its visible messages' text. Undefined when the deadline passes first.
 */
export async function sessionNearestTerms(
  sessionView: SessionView,
  collected: CollectedSession,
  words: readonly string[],
  options: SessionSearchOptions,
): Promise<Map<string, NearestTerm[]> | undefined> {
  if (collected.via === "index" && options.builder) return nearestTerms(options.builder.index.vocabulary(), words);
  const view = searchableView(sessionView);
  const messages = view.messages.slice(0, view.visibleEnd);
  // The scan that found the words missing read every part already: its pieces are read again.
  const scanned = collected.scan && sameScan(collected.scan, messages, options.visibility) ? collected.scan.parts : undefined;
  const vocabulary = await scanVocabulary(messages, options.visibility, words, options.tuning.chunkChars, {
    deadline: options.deadline,
    signal: options.signal,
    parts: scanned,
  });
  return vocabulary && nearestTerms(vocabulary, words);
}

/**
 * A session's documents as candidate messages, ranked lazily (rank/candidates.ts); `shared`:
 * rescored first with those statistics, summed over every session searched (rescore.ts).
 */
export function sessionCandidates(
  collected: CollectedSession,
  query: Query,
  limits: ResultLimits,
  options: Pick<SessionSearchOptions, "visibility" | "tuning">,
  shared?: CollectionStats,
): Candidates {
  const textOf = textReader(options.visibility);
  if (shared && query.kind === "keyword") rescore(collected.docs, query.parsed, shared, collected.stats ?? shared, textOf);
  if (query.kind === "keyword")
    return keywordCandidates(candidateGroups(collected.docs, options.tuning, query.parsed), query.parsed, limits, options.visibility);
  return new Candidates(candidateGroups(collected.docs, options.tuning), undefined, textOf, {
    ...hitLimits(limits),
    marks: (_: string, doc: ScoredDoc) => patternMarks(doc.spans),
  });
}

/** A keyword query's candidates from its groups (best first before the boosts); `resolve` as Candidates takes it. */
export function keywordCandidates(
  groups: Group[],
  parsed: ParsedQuery,
  limits: ResultLimits,
  visibility: ToolVisibility,
  resolve?: (group: Group) => Promise<boolean>,
): Candidates {
  return new Candidates(groups, parsed, textReader(visibility), { ...hitLimits(limits), marks: (text: string) => keywordMarks(text, parsed) }, resolve);
}

function hitLimits(limits: ResultLimits): { maxHits: number; maxSnippets: number; snippetChars: number } {
  return { maxHits: limits.maxHits, maxSnippets: limits.maxSnippets, snippetChars: limits.snippetChars };
}
