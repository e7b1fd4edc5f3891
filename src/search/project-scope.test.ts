import { describe, expect, it } from "vitest";
import { compactionPair, textMessage } from "../history/testing/messages.ts";
import type { HistoryMessage } from "../history/types.ts";
import { MemorySource } from "../store/testing/memory-source.ts";
import type { SearchRequest, SearchService } from "./types.ts";
import { FILLER } from "./testing/filler.ts";
import { testService } from "./testing/service.ts";
import { addSession, T0 } from "./testing/sessions.ts";

function projectRequest(query: string, callerSessionId = "ses_caller"): SearchRequest {
  return { query, callerSessionId, scope: "project", types: ["text", "tool"] };
}

describe("project scope", () => {
  it("scores every session against the statistics of all sessions searched", async () => {
    const source = new MemorySource();
    // Session a: every message holds the whole query (its words are common there).
    addSession(
      source,
      "ses_a",
      Array.from({ length: 10 }, (_, i) => `Reviewed the token bucket limiter settings, round ${i}.`),
    );
    // Session b: one partial match among fillers (rare there).
    addSession(source, "ses_b", [...FILLER, ...FILLER, ...FILLER, "The limiter is switched off.", ...FILLER], { start: T0 + 100_000 });
    for (const built of [false, true]) {
      const service = testService(source);
      if (built) for (const id of ["ses_a", "ses_b"]) await service.buildIndex(id);
      const answer = await service.search(projectRequest("token bucket limiter"));
      expect(answer.results[0]!.sessionId).toBe("ses_a");
      const sessions = await service.sessions({ query: "token bucket limiter", limit: 5, includeChildren: true });
      expect(sessions.sessions[0]!.session.id).toBe("ses_a");
    }
  });

  it("judges a message's length against its own session, so project scope keeps the session's order of lengths", async () => {
    const source = new MemorySource();
    const chatFiller = (i: number) => `Sounds good, moving on to step ${i} of the plan.`;
    const short = "The retry of each upload works now.";
    const long = Array.from(
      { length: 4 },
      (_, i) => `Pass ${i}: the retry wrapper re-sent the upload after a timeout; ${"the logs showed nothing else of note here. ".repeat(4)}`,
    ).join("\n");
    // A chat session: short messages, and the two candidates (both words in each, never side by side).
    const chat = addSession(source, "ses_chat", [...Array.from({ length: 10 }, (_, i) => chatFiller(i)), short, long]);
    // An agent run of long tool-output-like messages: it raises the average length of all sessions.
    addSession(
      source,
      "ses_logs",
      Array.from({ length: 10 }, (_, i) => `Build log ${i}:\n${"compiling module, linking objects, writing cache. ".repeat(60)}`),
      { start: T0 + 100_000 },
    );
    const [shortId, longId] = [chat[10]!.id, chat[11]!.id];
    for (const built of [false, true]) {
      const service = testService(source);
      if (built) for (const id of ["ses_chat", "ses_logs"]) await service.buildIndex(id);
      const alone = (await service.search({ ...projectRequest("upload retry"), scope: "session", sessionId: "ses_chat" })).results.map((r) => r.message.id);
      const project = (await service.search(projectRequest("upload retry"))).results.map((r) => r.message.id);
      expect(alone.slice(0, 2)).toEqual([shortId, longId]);
      expect(project.slice(0, 2)).toEqual([shortId, longId]);
    }
  });

  it("weighs a session's messages by the share of the query's words the session holds", async () => {
    const source = new MemorySource();
    // Session a holds both words of the query, never in one message; session b only one, more often.
    const a = addSession(source, "ses_a", [...FILLER, "The walrus importer reads the old dump now.", ...FILLER, "Schema migration notes are in the wiki."]);
    const b = addSession(source, "ses_b", [...FILLER, "The walrus walrus walrus mascot got a new hat.", ...FILLER], { start: T0 + 100_000 });
    for (const built of [false, true]) {
      const service = testService(source);
      if (built) for (const id of ["ses_a", "ses_b"]) await service.buildIndex(id);
      const ids = (await service.search(projectRequest("walrus migration"))).results.map((r) => r.message.id);
      expect(ids.indexOf(a[FILLER.length]!.id)).toBeLessThan(ids.indexOf(b[FILLER.length]!.id));
      expect(ids.indexOf(b[FILLER.length]!.id)).toBeGreaterThanOrEqual(0);
    }
  });

  it("never returns the calling session's live turn, in project or session scope", async () => {
    const source = new MemorySource();
    const own = addSession(source, "ses_caller", [
      "We picked the walrus protocol for sync.",
      "Agreed: walrus protocol it is.",
      "What did we decide about the walrus protocol?",
    ]);
    const other = addSession(source, "ses_other", ["Is the walrus protocol documented?"], { start: T0 + 100_000 });
    for (const request of [projectRequest("walrus protocol"), { ...projectRequest("walrus protocol"), scope: "session" as const, sessionId: "ses_caller" }]) {
      const ids = (await testService(source).search(request)).results.map((r) => r.message.id);
      expect(ids).not.toContain(own[2]!.id);
      expect(ids).toEqual(expect.arrayContaining([own[0]!.id, own[1]!.id]));
      if (request.scope === "project") expect(ids).toContain(other[0]!.id);
    }
  });

  /**
   * The caller's session: a decision before its last compaction, then live messages (a turn after
   * the compaction and the question being asked) that match the query better than anything else.
   */
  function compactedCaller(source: MemorySource): { before: HistoryMessage[]; live: HistoryMessage[] } {
    const before = [
      textMessage("ses_caller", "user", "Which sync protocol should we use?", T0),
      textMessage("ses_caller", "assistant", "We picked the walrus protocol for sync.", T0 + 1000),
    ];
    const compaction = compactionPair(true).map((message, i) => ({ ...message, sessionId: "ses_caller", created: T0 + 2000 + i * 1000 }));
    const live = [
      textMessage("ses_caller", "user", "Back to the walrus protocol sync decision: which walrus protocol sync decision?", T0 + 4000),
      textMessage("ses_caller", "assistant", "Looking up the walrus protocol sync decision now.", T0 + 5000),
      textMessage("ses_caller", "user", "What was the walrus protocol sync decision, and why that walrus protocol?", T0 + 6000),
    ];
    source.add({ id: "ses_caller", title: "session ses_caller", created: T0, updated: T0 + 6000 }, [...before, ...compaction, ...live]);
    return { before, live };
  }

  /** The service before and after every session's index is built. */
  async function* bothPaths(source: MemorySource, ids: string[]): AsyncGenerator<SearchService> {
    yield testService(source);
    const service = testService(source);
    for (const id of ids) await service.buildIndex(id);
    yield service;
  }

  it("leaves out the calling session's messages from its last compaction on, in project and global scope, and finds its earlier ones", async () => {
    const source = new MemorySource();
    const { before, live } = compactedCaller(source);
    const other = addSession(source, "ses_other", [...FILLER, "Is the walrus protocol documented?"], { start: T0 + 100_000 });
    // Global scope lists every session of the store; here, the same sessions.
    const everywhere = Object.assign(source, { listEverySession: () => source.listSessions() });
    for await (const service of bothPaths(everywhere, ["ses_caller", "ses_other"])) {
      for (const scope of ["project", "global"] as const) {
        const results = (await service.search({ ...projectRequest("walrus protocol sync decision"), scope })).results;
        const ids = results.map((r) => r.message.id);
        for (const message of live) expect(ids).not.toContain(message.id);
        expect(ids[0]).toBe(before[1]!.id);
        expect(ids).toContain(other[FILLER.length]!.id);
        // Asked from another session, the same messages are the best matches.
        const outside = (await service.search({ ...projectRequest("walrus protocol sync decision", "ses_elsewhere"), scope })).results;
        expect(live.map((message) => message.id)).toContain(outside[0]!.message.id);
      }
    }
  });

  it("ranks the calling session in history_sessions by its messages before its live context, and still lists it", async () => {
    const source = new MemorySource();
    compactedCaller(source);
    addSession(source, "ses_other", [...FILLER, "Is the walrus protocol documented?"], { start: T0 + 100_000 });
    for await (const service of bothPaths(source, ["ses_caller", "ses_other"])) {
      // Only the live messages say "decision": the caller's session does not match it.
      const decision = await service.sessions({ query: "decision", limit: 5, includeChildren: true, callerSessionId: "ses_caller" });
      expect(decision.sessions.map((s) => s.session.id)).toEqual([]);
      const outside = await service.sessions({ query: "decision", limit: 5, includeChildren: true, callerSessionId: "ses_elsewhere" });
      expect(outside.sessions.map((s) => s.session.id)).toEqual(["ses_caller"]);
      // Its earlier messages still rank it, with their snippet; its turns and first request are the session's own.
      const walrus = await service.sessions({ query: "walrus protocol", limit: 5, includeChildren: true, callerSessionId: "ses_caller" });
      const own = walrus.sessions.find((s) => s.session.id === "ses_caller")!;
      expect(own.snippet).toContain("picked the walrus protocol");
      expect(own.preview).toBe("Which sync protocol should we use?");
      expect({ turns: own.turns, preview: own.preview }).toEqual({ turns: outside.sessions[0]!.turns, preview: outside.sessions[0]!.preview });
      expect(own.turns).toBeGreaterThan(1);
    }
  });
});
