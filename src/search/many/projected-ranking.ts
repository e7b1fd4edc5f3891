// A session's candidate messages ranked from what the projection keeps of it (session-terms.ts),
// without reading it: every chunk holding a query term becomes the scored document a scan of the
// session would hand to ranking (its message, part, range, and per query term the weighted
// frequency), and the engine's own rescore and candidateGroups score them, so each candidate's
// score before the boosts is the one reading the session gives. The boosts and snippets need the
// messages' text: only the candidates that can still place are read (rank/candidates.ts's rule).

import type { HistoryMessage } from "../../history/types.ts";
import type { CollectionStats } from "../rank/bm25.ts";
import { candidateGroups, type Group } from "../rank/rank.ts";
import { rescore } from "../rank/rescore.ts";
import type { ParsedQuery } from "../text/query.ts";
import type { DocFilter, ScoredDoc } from "../types.ts";
import { CHUNK_CONTINUE, CHUNK_HOST_WRITTEN, CHUNK_STRIDE, CHUNK_SUMMARY, type SessionChunks } from "./session-terms.ts";

/** The opening of a continuation summary (history/summaries.ts): a user message made to read as one. */
const CONTINUATION = "This session is being continued from a previous conversation";

/**
 * A message as ranking reads it (role, time, id, summary and host flags), with no parts but one
 * that makes a continuation summary read as one: never given text to read.
 */
function messageStub(sessionId: string, [id, role, created, flags]: SessionChunks["messages"][number]): HistoryMessage {
  const message: HistoryMessage = { id, sessionId, role, parts: [] };
  if (created !== 0) message.created = created;
  if (flags & CHUNK_HOST_WRITTEN) message.hostWritten = true;
  if (flags & CHUNK_CONTINUE) message.compactionContinue = true;
  if (flags & CHUNK_SUMMARY) {
    if (role === "assistant") message.summary = true;
    else message.parts.push({ kind: "text", id: "", text: CONTINUATION });
  }
  return message;
}

/**
 * One session's candidate messages, best first before the boosts, from its kept chunks:
 * `termChunks[t]` the flat [chunk, tf, …] of query term t in it (undefined: none), `own` its
 * documents, length and per-term document counts, `shared` the scope's. Their messages are stubs:
 * a candidate that may place is read from the store for its boosts and snippets.
 */
export function projectedGroups(
  sessionId: string,
  kept: SessionChunks,
  termChunks: ReadonlyArray<readonly number[] | undefined>,
  parsed: ParsedQuery,
  own: CollectionStats,
  shared: CollectionStats,
  accept: DocFilter = () => true,
): Group[] {
  const tfsByChunk = new Map<number, number[]>();
  termChunks.forEach((list, t) => {
    if (!list) return;
    for (let i = 0; i < list.length; i += 2) {
      let tfs = tfsByChunk.get(list[i]!);
      if (!tfs) tfsByChunk.set(list[i]!, (tfs = new Array<number>(termChunks.length).fill(0)));
      tfs[t] = list[i + 1]!;
    }
  });
  const messages = new Map<number, HistoryMessage>();
  const docs: ScoredDoc[] = [];
  // In the session's order, as a scan hands them over.
  for (const chunk of [...tfsByChunk.keys()].sort((a, b) => a - b)) {
    const at = chunk * CHUNK_STRIDE;
    const [m, p, start, end, input] = kept.chunks.slice(at, at + CHUNK_STRIDE) as [number, number, number, number, number];
    let message = messages.get(m);
    if (!message) messages.set(m, (message = messageStub(sessionId, kept.messages[m]!)));
    const [partId, type, tool] = kept.parts[p]!;
    if (!accept(message, type, tool === "" ? undefined : tool)) continue;
    const doc: ScoredDoc = { message, partId, type, start, end, score: 0, tfs: tfsByChunk.get(chunk)! };
    if (tool !== "") doc.tool = tool;
    if (input > 0) doc.input = input;
    docs.push(doc);
  }
  rescore(docs, parsed, shared, own, () => {
    throw new Error("a projected chunk's counts are kept: its text is never read to score it");
  });
  return candidateGroups(docs, parsed);
}
