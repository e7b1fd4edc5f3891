// Compact JSON answers for the model: snake_case, empty fields omitted, one message per line,
// and well under the host's 51,200-byte cut.

import type { SearchAnswer, SessionsAnswer } from "./service.ts";
import type { SessionResult } from "./project-search.ts";

export const MAX_OUTPUT_BYTES = 40_000;

function iso(ms: number | undefined): string | undefined {
  return ms === undefined ? undefined : new Date(ms).toISOString();
}

function messageJson(result: SessionResult, withSession: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (withSession) out.session_id = result.sessionId;
  out.message_id = result.message.id;
  out.role = result.message.role;
  out.turn_number = result.turnNumber;
  const time = iso(result.message.created);
  if (time !== undefined) out.time = time;
  out.hits = result.hits.map((hit) => {
    const h: Record<string, unknown> = { type: hit.type, part_id: hit.partId };
    if (hit.tool !== undefined) h.tool_name = hit.tool;
    h.snippets = hit.snippets;
    return h;
  });
  if (result.remainHits > 0) out.remain_hits = result.remainHits;
  return out;
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** `{"messages":[\n{…},\n{…}],…}`: valid JSON, one message per line, bounded in bytes. */
function assemble(key: string, lines: string[], tail: Record<string, unknown>): string {
  const tailJson = JSON.stringify(tail);
  const tailBody = tailJson === "{}" ? "" : `,${tailJson.slice(1, -1)}`;
  return `{"${key}":[\n${lines.join(",\n")}]${tailBody}}`;
}

function bounded(key: string, lines: string[], tail: Record<string, unknown>, omittedKey: string): string {
  let kept = lines;
  let out = assemble(key, kept, tail);
  while (byteLength(out) > MAX_OUTPUT_BYTES && kept.length > 1) {
    kept = kept.slice(0, Math.max(1, Math.floor(kept.length * 0.8)));
    out = assemble(key, kept, { ...tail, [omittedKey]: lines.length - kept.length });
  }
  return out;
}

export function formatSearchAnswer(answer: SearchAnswer, hint: string): string {
  const tail: Record<string, unknown> = {};
  if (answer.unsearched !== undefined && answer.unsearched > 0) {
    tail.partial = true;
    tail.unsearched_sessions = answer.unsearched;
  }
  if (answer.results.length === 0) return JSON.stringify({ ...tail, hint });
  const lines = answer.results.map((result) => JSON.stringify(messageJson(result, answer.scope === "project")));
  return bounded("messages", lines, tail, "omitted_messages");
}

export function formatSessionsAnswer(answer: SessionsAnswer, hint: string): string {
  const tail: Record<string, unknown> = {};
  if (answer.unsearched !== undefined && answer.unsearched > 0) {
    tail.partial = true;
    tail.unsearched_sessions = answer.unsearched;
  }
  if (answer.sessions.length === 0) return JSON.stringify({ ...tail, hint });
  const lines = answer.sessions.map(({ session, turns, preview, snippet }) => {
    const out: Record<string, unknown> = { session_id: session.id, title: session.title };
    if (session.parentId !== undefined) out.parent_id = session.parentId;
    const created = iso(session.created);
    if (created !== undefined) out.created = created;
    const updated = iso(session.updated);
    if (updated !== undefined) out.updated = updated;
    out.turns = turns;
    if (preview) out.preview = preview;
    if (snippet !== undefined) out.snippet = snippet;
    return JSON.stringify(out);
  });
  return bounded("sessions", lines, tail, "omitted_sessions");
}
