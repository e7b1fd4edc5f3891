import { describe, expect, it } from "vitest";
import { textMessage } from "../history/testing/messages.ts";
import type { HistoryMessage } from "../history/types.ts";
import { MemorySource } from "../host/testing/memory-source.ts";
import type { SearchRequest } from "./service.ts";
import { testService } from "./testing/service.ts";

const T0 = Date.UTC(2025, 0, 1);
const FILLER = ["Let us look at the build configuration first.", "The tests pass on my machine but fail in CI sometimes.", "Please check the README."];

function addSession(source: MemorySource, id: string, texts: string[], start: number): HistoryMessage[] {
  const messages = texts.map((text, i) => textMessage(id, i % 2 === 0 ? "user" : "assistant", text, start + i * 1000));
  source.add({ id, title: `session ${id}`, created: start, updated: start + texts.length * 1000 }, messages);
  return messages;
}

function projectRequest(query: string, callerSessionId = "ses_caller"): SearchRequest {
  return { query, callerSessionId, scope: "project", types: ["text", "tool"] };
}

describe("project scope", () => {
  it("scores every session against the statistics of all sessions searched", async () => {
    const source = new MemorySource();
    // Session a: every message holds the whole query (its words are common there).
    addSession(source, "ses_a", Array.from({ length: 10 }, (_, i) => `Reviewed the token bucket limiter settings, round ${i}.`), T0);
    // Session b: one partial match among fillers (rare there).
    addSession(source, "ses_b", [...FILLER, ...FILLER, ...FILLER, "The limiter is switched off.", ...FILLER], T0 + 100_000);
    for (const built of [false, true]) {
      const service = testService(source);
      if (built) for (const id of ["ses_a", "ses_b"]) await service.indexed(id);
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
    const long = Array.from({ length: 4 }, (_, i) => `Pass ${i}: the retry wrapper re-sent the upload after a timeout; ${"the logs showed nothing else of note here. ".repeat(4)}`).join("\n");
    // A chat session: short messages, and the two candidates (both words in each, never side by side).
    const chat = addSession(source, "ses_chat", [...Array.from({ length: 10 }, (_, i) => chatFiller(i)), short, long], T0);
    // An agent run of long tool-output-like messages: it raises the average length of all sessions.
    addSession(source, "ses_logs", Array.from({ length: 10 }, (_, i) => `Build log ${i}:\n${"compiling module, linking objects, writing cache. ".repeat(60)}`), T0 + 100_000);
    const [shortId, longId] = [chat[10]!.id, chat[11]!.id];
    for (const built of [false, true]) {
      const service = testService(source);
      if (built) for (const id of ["ses_chat", "ses_logs"]) await service.indexed(id);
      const alone = (await service.search({ ...projectRequest("upload retry"), scope: "session", sessionId: "ses_chat" })).results.map((r) => r.message.id);
      const project = (await service.search(projectRequest("upload retry"))).results.map((r) => r.message.id);
      expect(alone.slice(0, 2)).toEqual([shortId, longId]);
      expect(project.slice(0, 2)).toEqual([shortId, longId]);
    }
  });

  it("weighs a session's messages by the share of the query's words the session holds", async () => {
    const source = new MemorySource();
    // Session a holds both words of the query, never in one message; session b only one, more often.
    const a = addSession(source, "ses_a", [...FILLER, "The walrus importer reads the old dump now.", ...FILLER, "Schema migration notes are in the wiki."], T0);
    const b = addSession(source, "ses_b", [...FILLER, "The walrus walrus walrus mascot got a new hat.", ...FILLER], T0 + 100_000);
    for (const built of [false, true]) {
      const service = testService(source);
      if (built) for (const id of ["ses_a", "ses_b"]) await service.indexed(id);
      const ids = (await service.search(projectRequest("walrus migration"))).results.map((r) => r.message.id);
      expect(ids.indexOf(a[3]!.id)).toBeLessThan(ids.indexOf(b[3]!.id));
      expect(ids.indexOf(b[3]!.id)).toBeGreaterThanOrEqual(0);
    }
  });

  it("never returns the calling session's live turn, in project or session scope", async () => {
    const source = new MemorySource();
    const own = addSession(source, "ses_caller", ["We picked the walrus protocol for sync.", "Agreed: walrus protocol it is.", "What did we decide about the walrus protocol?"], T0);
    const other = addSession(source, "ses_other", ["Is the walrus protocol documented?"], T0 + 100_000);
    for (const request of [projectRequest("walrus protocol"), { ...projectRequest("walrus protocol"), scope: "session" as const, sessionId: "ses_caller" }]) {
      const ids = (await testService(source).search(request)).results.map((r) => r.message.id);
      expect(ids).not.toContain(own[2]!.id);
      expect(ids).toEqual(expect.arrayContaining([own[0]!.id, own[1]!.id]));
      if (request.scope === "project") expect(ids).toContain(other[0]!.id);
    }
  });
});
