// A session's candidate messages ranked from what the projection keeps of it (session-terms.ts),
// without reading it: every chunk holding a query term becomes the scored document a scan of the
// session would hand to ranking (its message, part, range, and per query term the weighted
// frequency), and the engine's own rescore and candidateGroups score them, so each candidate's
// score before the boosts is the one reading the session gives. The boosts and snippets need the
// messages' text: a candidate is read from the store only when it can still place
// (rank/candidates.ts's resolve), one message at a time.

import { CONTINUATION_SENTENCE } from "../../history/summaries.ts";
import type { HistoryMessage } from "../../history/types.ts";
import type { CollectionStats } from "../rank/bm25.ts";
import { candidateGroups, type Group } from "../rank/rank.ts";
import { rescore } from "../rank/rescore.ts";
import type { ParsedQuery } from "../text/query.ts";
import {
  CHUNK_CONTINUE,
  CHUNK_HOST_WRITTEN,
  CHUNK_STRIDE,
  CHUNK_SUMMARY,
  type ChunkMessage,
  type ChunkTable,
  type DocFilter,
  type ProjectedHolder,
  type ScoredDoc,
} from "../types.ts";

/**
 * A message as ranking reads it (role, time, id, summary and host flags), with no parts but one
 * that makes a continuation summary read as one: its text is never read.
 */
function messageStub(sessionId: string, { id, role, created, flags }: ChunkMessage): HistoryMessage {
  const message: HistoryMessage = { id, sessionId, role, parts: [] };
  if (created !== 0) message.created = created;
  if (flags & CHUNK_HOST_WRITTEN) message.hostWritten = true;
  if (flags & CHUNK_CONTINUE) message.compactionContinue = true;
  if (flags & CHUNK_SUMMARY) {
    if (role === "assistant") message.summary = true;
    else message.parts.push({ kind: "text", id: "", text: CONTINUATION_SENTENCE });
  }
  return message;
}

export interface ProjectedGroups {
  /** Best first before the boosts; their messages are stubs until resolved. */
  groups: Group[];
  /** Each candidate message's turn number. */
  turns: Map<string, number>;
}

/**
 * One session's candidate messages from its kept chunks: `termChunks[t]` the flat [chunk, tf, …]
 * of query term t in it, `own` its documents, length and per-term document counts, `shared` the
 * scope's statistics.
 */
export function projectedGroups(
  sessionId: string,
  table: ChunkTable,
  termChunks: ReadonlyArray<readonly number[]>,
  parsed: ParsedQuery,
  own: CollectionStats,
  shared: CollectionStats,
  accept: DocFilter = () => true,
): ProjectedGroups {
  const tfsByChunk = new Map<number, number[]>();
  termChunks.forEach((list, t) => {
    for (let i = 0; i < list.length; i += 2) {
      let tfs = tfsByChunk.get(list[i]!);
      if (!tfs) tfsByChunk.set(list[i]!, (tfs = new Array<number>(termChunks.length).fill(0)));
      tfs[t] = list[i + 1]!;
    }
  });
  const messages = new Map<number, HistoryMessage>();
  const turns = new Map<string, number>();
  const docs: ScoredDoc[] = [];
  const chunks = table.chunks;
  // In the session's order, as a scan hands them over.
  for (const chunk of [...tfsByChunk.keys()].sort((a, b) => a - b)) {
    const at = chunk * CHUNK_STRIDE;
    const m = chunks[at]!;
    let message = messages.get(m);
    if (!message) {
      const kept = table.message(m);
      messages.set(m, (message = messageStub(sessionId, kept)));
      turns.set(kept.id, kept.turn);
    }
    const part = table.part(chunks[at + 1]!);
    if (!accept(message, part.type, part.tool)) continue;
    const doc: ScoredDoc = { message, partId: part.id, type: part.type, start: chunks[at + 2]!, end: chunks[at + 3]!, score: 0, tfs: tfsByChunk.get(chunk)! };
    if (part.tool !== undefined) doc.tool = part.tool;
    const input = chunks[at + 4]!;
    if (input > 0) doc.input = input;
    docs.push(doc);
  }
  rescore(docs, parsed, shared, own, () => {
    throw new Error("a projected chunk's counts are kept: its text is never read to score it");
  });
  return { groups: candidateGroups(docs, parsed), turns };
}

/** A holder's own statistics for `parsed`'s terms. */
export function holderStats(holder: ProjectedHolder): CollectionStats {
  return { docs: holder.docs, length: holder.length, df: holder.df };
}

/**
 * Gives a projected candidate its message as the store holds it (`load`); false when the message
 * is gone or no longer holds a chunk's part: the candidate is dropped.
 */
export async function resolveGroup(group: Group, load: (messageId: string) => Promise<HistoryMessage | undefined>): Promise<boolean> {
  const message = await load(group.message.id);
  if (!message) return false;
  for (const doc of group.docs) if (!message.parts.some((part) => part.id === doc.partId)) return false;
  group.message = message;
  for (const doc of group.docs) doc.message = message;
  return true;
}
