import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ArgumentError } from "../history/errors.ts";
import { MemorySource } from "../store/testing/memory-source.ts";
import { formatSearchAnswer, formatSessionsAnswer } from "./answer.ts";
import { FILLER } from "./testing/filler.ts";
import { testService } from "./testing/service.ts";
import { addSession, T0 } from "./testing/sessions.ts";
import type { SearchRequest, SessionsRequest } from "./types.ts";
import { MAX_OFFSET } from "./parse.ts";

const WORDS = ["limiter", "bucket", "token", "retry", "upload", "cache"];

/** A session of `count` messages that each hold some of the query's words, among fillers: scores close together. */
function similarSession(source: MemorySource, id: string, count: number, seed: number, start = T0): void {
  const texts = Array.from({ length: count }, (_, i) => {
    const words = WORDS.filter((_, w) => (i * 7 + seed * 3 + w) % 3 !== 0);
    return `${words.join(" ")} step ${i}: ${FILLER[(i + seed) % FILLER.length]}`;
  });
  addSession(source, id, texts, { start });
}

/** Every page of `request` from offset 0, following next_offset as the model would. */
async function allPages(search: (offset: number) => Promise<Record<string, unknown>>): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let offset: number | undefined = 0;
  let pages = 0;
  while (offset !== undefined) {
    const page = await search(offset);
    pages++;
    const items = (page.messages ?? page.sessions ?? []) as Array<{ message_id?: string; session_id: string }>;
    for (const item of items) ids.push(item.message_id ?? item.session_id);
    expect(page.next_offset === undefined || page.next_offset === offset + items.length).toBe(true);
    offset = page.next_offset as number | undefined;
  }
  return { ids, pages };
}

describe("paging", () => {
  it("a session with 14 matching messages, 5 a page: next_offset 5 and 10, every match once", async () => {
    const source = new MemorySource();
    addSession(source, "ses_a", [...Array.from({ length: 14 }, (_, i) => `rate limiter decision number ${i}`), ...FILLER]);
    const service = testService(source);
    const request: SearchRequest = { query: "rate limiter", callerSessionId: "ses_other", sessionId: "ses_a", scope: "session", types: ["text"], limit: 5 };
    const first = formatSearchAnswer(await service.search(request), "none");
    expect(first.next_offset).toBe(5);
    const { ids, pages } = await allPages(async (offset) => formatSearchAnswer(await service.search({ ...request, offset }), "none"));
    expect(pages).toBe(3);
    expect(new Set(ids).size).toBe(14);
    const whole = (await service.search({ ...request, limit: 20 })).results.map((r) => r.message.id);
    expect(ids).toEqual(whole);
  });

  it("an offset past the end is an empty page that says so; a bad offset names the range", async () => {
    const source = new MemorySource();
    addSession(source, "ses_a", ["rate limiter one", "rate limiter two", ...FILLER]);
    const service = testService(source);
    const request: SearchRequest = { query: "rate limiter", callerSessionId: "ses_other", sessionId: "ses_a", scope: "session", types: ["text"], offset: 40 };
    const answer = await service.search(request);
    expect(answer.results).toEqual([]);
    expect(formatSearchAnswer(answer, "No message matches.")).toEqual({ hint: "No more results: offset 40 is past the last one." });
    for (const offset of [-1, 1.5, MAX_OFFSET + 1]) {
      await expect(service.search({ ...request, offset })).rejects.toThrow(
        new ArgumentError(`offset must be an integer from 0 to ${MAX_OFFSET} (got ${offset})`),
      );
    }
    const sessions: SessionsRequest = { limit: 5, includeChildren: true, offset: 10 };
    expect(formatSessionsAnswer(await service.sessions(sessions), "none")).toEqual({ hint: "No more results: offset 10 is past the last one." });
  });

  it("pages of any size, cold or from the index, in one session or the project, join into the one ranking", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 30, max: 90 }),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom("limiter bucket", "token retry upload", "cache", "why did the upload retry the limiter"),
        fc.boolean(),
        async (sessions, count, limit, query, built) => {
          const source = new MemorySource();
          for (let s = 0; s < sessions; s++) similarSession(source, `ses_${s}`, count + s * 5, s, T0 + s * 1_000_000);
          for (const scope of ["session", "project"] as const) {
            const service = testService(source);
            if (built) for (let s = 0; s < sessions; s++) await service.buildIndex(`ses_${s}`);
            const request: SearchRequest = { query, callerSessionId: "ses_other", scope, types: ["text"], limit };
            if (scope === "session") request.sessionId = "ses_0";
            const { ids } = await allPages(async (offset) => formatSearchAnswer(await service.search({ ...request, offset }), "none"));
            // The whole ranking in one page, from a fresh service (cold).
            const expected = (await testService(source).search({ ...request, limit: 1_000 })).results.map((r) => r.message.id);
            expect(new Set(ids).size).toBe(ids.length);
            expect(ids).toEqual(expected);
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it("history_sessions pages its ranking, and its listing without a query", async () => {
    const source = new MemorySource();
    for (let s = 0; s < 9; s++) similarSession(source, `ses_${s}`, 6 + s, s, T0 + s * 1_000_000);
    const service = testService(source);
    for (const query of [undefined, "limiter bucket"]) {
      const request: SessionsRequest = { limit: 4, includeChildren: true };
      if (query !== undefined) request.query = query;
      const { ids, pages } = await allPages(async (offset) => formatSessionsAnswer(await service.sessions({ ...request, offset }), "none"));
      expect(pages).toBe(3);
      const whole = (await service.sessions({ ...request, limit: 20 })).sessions.map((s) => s.session.id);
      expect(ids).toEqual(whole);
      expect(whole).toHaveLength(9);
    }
  });
});
