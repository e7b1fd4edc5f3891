// Stage 5 of a search, answer: the page of the ranking (of the phrasings' rankings fused, with
// which phrasings ranked each result), the sessions' summaries, and the answer objects for the
// model: snake_case keys, empty fields omitted, and small enough that their JSON stays well
// under the host's 51,200-byte cut.

import { byteLength, isoTime } from "../history/compact.ts";
import { firstUserText } from "../history/preview.ts";
import { clip } from "../history/text.ts";
import type { SessionInfo } from "../history/types.ts";
import { lastTurnNumber } from "../history/turns.ts";
import type { SessionView } from "../history/view.ts";
import { now } from "../util/scheduler.ts";
import type { SessionsSearchOutcome } from "./merge.ts";
import { fuseRankings } from "./rank/fusion.ts";
import type { RankedSession } from "./rank/rank-sessions.ts";
import type { SearchTuning } from "./tuning.ts";
import type { ProjectedSummary, SearchAnswer, SearchScope, SessionResult, SessionsAnswer, SessionSummary } from "./types.ts";

/**
 * history_search's page of its one ranking, or of its phrasings' rankings fused: each result then
 * shown as the phrasing that ranked it highest found it, with the numbers of those that ranked it
 * (`numbers`: per phrasing, its own), and the phrasings that found nothing `unmatched`.
 */
export function searchPage(
  outcomes: readonly SessionsSearchOutcome[],
  numbers: readonly number[],
  scope: SearchScope,
  offset: number,
  limit: number,
  tuning: SearchTuning,
): SearchAnswer {
  if (outcomes.length === 1) {
    const results = outcomes[0]!.results;
    return { results: results.slice(offset, offset + limit), scope, offset, more: results.length > offset + limit };
  }
  const fused = fuseRankings(
    outcomes.map((outcome) =>
      outcome.ranked.map((entry) => ({ key: `${entry.key}\u0000${entry.group.message.id}`, score: entry.group.score, item: { outcome, entry } })),
    ),
    tuning,
  );
  const results = fused
    .slice(offset, offset + limit)
    .map(({ by, best }) => Object.assign(best.item.outcome.resultOf(best.item.entry), { by: by.map((p) => numbers[p]!) }));
  const answer: SearchAnswer = { results, scope, offset, more: fused.length > offset + limit };
  const unmatched = numbers.filter((_, p) => outcomes[p]!.ranked.length === 0);
  if (unmatched.length > 0) answer.unmatched = unmatched;
  return answer;
}

/** Where history_sessions' summaries come from: the projection's copy, else the session read. */
export interface SummarySource {
  projectedSummary(session: SessionInfo): ProjectedSummary | undefined;
  loadView(sessionId: string, callerSessionId: string, signal?: AbortSignal): Promise<SessionView>;
}

/**
 * The chosen sessions' summaries: the projection's, else read (until `deadline`; past it, or
 * unreadable, with what the listing says), each with its snippet and the phrasings that ranked it.
 */
export async function sessionSummaries(
  chosen: ReadonlyArray<{ session: SessionInfo; snippet?: RankedSession["snippet"] }>,
  from: SummarySource,
  options: { callerSessionId: string; previewChars: number; deadline: number; by?: ReadonlyMap<string, number[]>; signal?: AbortSignal | undefined },
): Promise<SessionSummary[]> {
  const summaries: SessionSummary[] = [];
  for (const { session, snippet: snippetOf } of chosen) {
    const projected = session.id === options.callerSessionId ? undefined : from.projectedSummary(session);
    let turns = projected?.turns ?? 0;
    let first = projected?.preview ?? "";
    if (!projected && now() <= options.deadline) {
      try {
        const view = await from.loadView(session.id, "", options.signal);
        turns = lastTurnNumber(view);
        first = firstUserText(view);
      } catch {
        // listed but unreadable: keep it with what the listing says
        options.signal?.throwIfAborted();
      }
    }
    const summary: SessionSummary = { session, turns, preview: clip(first, options.previewChars) };
    const snippet = await snippetOf?.();
    if (snippet !== undefined) summary.snippet = snippet;
    const found = options.by?.get(session.id);
    if (found) summary.by = found;
    summaries.push(summary);
  }
  return summaries;
}

const MAX_OUTPUT_BYTES = 40_000;

function messageJson(result: SessionResult, withSession: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (withSession) out.session_id = result.sessionId;
  if (result.directory !== undefined) out.directory = result.directory;
  out.message_id = result.message.id;
  out.role = result.message.role;
  out.turn_number = result.turnNumber;
  const time = isoTime(result.message.created);
  if (time !== undefined) out.time = time;
  out.hits = result.hits.map((hit) => {
    const h: Record<string, unknown> = { type: hit.type, part_id: hit.partId };
    if (hit.tool !== undefined) h.tool_name = hit.tool;
    h.snippets = hit.snippets;
    return h;
  });
  if (result.remainHits > 0) out.remain_hits = result.remainHits;
  if (result.by !== undefined) out.by = result.by;
  return out;
}

/**
 * Drops trailing entries until the answer's JSON fits MAX_OUTPUT_BYTES (at least one stays). The
 * next page starts after the last entry kept: `next_offset` when entries were dropped or the
 * ranking holds more (`page`: where this page starts and whether more follow).
 */
function bounded(
  key: string,
  items: Record<string, unknown>[],
  tail: Record<string, unknown>,
  omittedKey: string,
  page: { offset: number; more: boolean },
): Record<string, unknown> {
  const make = (kept: Record<string, unknown>[]) => {
    const out: Record<string, unknown> = { [key]: kept, ...tail };
    if (kept.length < items.length) out[omittedKey] = items.length - kept.length;
    if (page.more || kept.length < items.length) out.next_offset = page.offset + kept.length;
    return out;
  };
  let kept = items;
  let out = make(kept);
  while (byteLength(JSON.stringify(out)) > MAX_OUTPUT_BYTES && kept.length > 1) {
    kept = kept.slice(0, Math.max(1, Math.floor(kept.length * 0.8)));
    out = make(kept);
  }
  return out;
}

function partialTail(unsearched: number | undefined): Record<string, unknown> {
  return unsearched !== undefined && unsearched > 0 ? { partial: true, unsearched_sessions: unsearched } : {};
}

/** An empty page past the ranking's end: said as such, not as "nothing matches". */
function pastTheEnd(offset: number): string {
  return `No more results: offset ${offset} is past the last one.`;
}

/** history_search's answer object (serialized compactly by the tool shell). */
export function formatSearchAnswer(answer: SearchAnswer, hint: string): Record<string, unknown> {
  const tail = partialTail(answer.unsearched);
  // Which query words were searched as another term (typos): the model sees what was searched.
  if (answer.corrections) tail.searched_instead = Object.fromEntries(answer.corrections);
  if (answer.unmatched) tail.unmatched = answer.unmatched;
  if (answer.results.length === 0) return { ...tail, hint: answer.offset > 0 ? pastTheEnd(answer.offset) : hint };
  const items = answer.results.map((result) => messageJson(result, answer.scope !== "session"));
  return bounded("messages", items, tail, "omitted_messages", answer);
}

/** history_sessions' answer object. */
export function formatSessionsAnswer(answer: SessionsAnswer, hint: string): Record<string, unknown> {
  const tail = partialTail(answer.unsearched);
  if (answer.unmatched) tail.unmatched = answer.unmatched;
  if (answer.sessions.length === 0) return { ...tail, hint: answer.offset > 0 ? pastTheEnd(answer.offset) : hint };
  const items = answer.sessions.map(({ session, turns, preview, snippet, by }) => {
    const out: Record<string, unknown> = { session_id: session.id, title: session.title };
    if (answer.global && session.directory !== undefined) out.directory = session.directory;
    if (session.parentId !== undefined) out.parent_id = session.parentId;
    const created = isoTime(session.created);
    if (created !== undefined) out.created = created;
    const updated = isoTime(session.updated);
    if (updated !== undefined) out.updated = updated;
    out.turns = turns;
    if (preview) out.preview = preview;
    if (snippet !== undefined) out.snippet = snippet;
    if (by !== undefined) out.by = by;
    return out;
  });
  return bounded("sessions", items, tail, "omitted_sessions", answer);
}
