// Another OpenCode history plugin's own relevance cases (../shared/corpus/peer-sr/: its test
// corpus and eight cases, kept there as data), asked of our search as its tools ask them: global
// scope, one answer per session. Every case names the one session that answers it; ours must
// rank that session first, in history_sessions and in history_search's first result.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SessionInfo } from "../../src/history/types.ts";
import { testService } from "../../src/search/testing/service.ts";
import { mapMessage, mapSession } from "../../src/store/map.ts";
import { MemorySource } from "../../src/store/testing/memory-source.ts";
import { CORPUS_DIR } from "./sessions.ts";

interface PeerCase {
  name: string;
  args: { query: string; scope: string; group: string };
  relevantSessionIDs: string[];
}

interface PeerCorpus {
  corpus: { globalSessions: unknown[]; messagesBySession: Record<string, unknown[]> };
  cases: PeerCase[];
}

/** Every project's sessions, as a store read directly lists them (global scope). */
class EveryProjectSource extends MemorySource {
  listEverySession(): Promise<SessionInfo[]> {
    return this.listSessions();
  }
}

function peerSource(corpus: PeerCorpus): EveryProjectSource {
  const source = new EveryProjectSource();
  for (const raw of corpus.corpus.globalSessions) {
    const info = mapSession(raw);
    if (!info) throw new Error(`peer corpus: a session the host's mapping refuses: ${JSON.stringify(raw).slice(0, 80)}`);
    const messages = (corpus.corpus.messagesBySession[info.id] ?? []).flatMap((entry) => mapMessage(entry, info.id) ?? []);
    source.add(info, messages);
  }
  return source;
}

describe("another history plugin's relevance cases", () => {
  const corpus = JSON.parse(readFileSync(join(CORPUS_DIR, "peer-sr", "eval-corpus.json"), "utf8")) as PeerCorpus;
  const source = peerSource(corpus);
  // Its corpus has five sessions in two projects; every case asks across projects, grouped by session.
  expect(corpus.cases.length).toBe(8);
  expect(corpus.cases.every((c) => c.args.scope === "global" && c.args.group === "session" && c.relevantSessionIDs.length === 1)).toBe(true);

  it.each(corpus.cases.map((c) => [c.name, c] as const))("%s: history_sessions ranks its session first", async (_, peerCase) => {
    const { sessions } = await testService(source).sessions({
      query: peerCase.args.query,
      limit: 5,
      includeChildren: true,
      callerSessionId: "ses_caller",
      global: true,
    });
    expect(sessions[0]?.session.id).toBe(peerCase.relevantSessionIDs[0]);
  });

  it.each(corpus.cases.map((c) => [c.name, c] as const))("%s: history_search's first result is in its session", async (_, peerCase) => {
    const { results } = await testService(source).search({
      query: peerCase.args.query,
      callerSessionId: "ses_caller",
      scope: "global",
      types: ["text", "tool"],
      limit: 5,
    });
    expect(results[0]?.message.sessionId).toBe(peerCase.relevantSessionIDs[0]);
  });
});
