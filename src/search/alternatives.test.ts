// history_search and history_sessions with alternatives: each phrasing ranked as a query of its
// own and the rankings fused, in every scope and mode; which phrasings found a result, which found
// nothing; paging of the fused ranking; bad alternatives refused naming the parameter; and a
// search without alternatives (or only repeating the query) answering as before.
import { describe, expect, it } from "vitest";
import { ArgumentError } from "../history/errors.ts";
import { MemorySource } from "../store/testing/memory-source.ts";
import { formatSearchAnswer, formatSessionsAnswer } from "./answer.ts";
import { fusedDepth, fuseRankings } from "./rank/fusion.ts";
import type { InspectableSearchService } from "./service.ts";
import { FILLER } from "./testing/filler.ts";
import { testService } from "./testing/service.ts";
import { addSession, T0 } from "./testing/sessions.ts";
import type { SearchRequest } from "./types.ts";
import { DEFAULT_TUNING } from "./tuning.ts";

const CALLER = "ses_caller";

function store(): MemorySource {
  const source = new MemorySource();
  addSession(source, "ses_a", [
    "why did the upload break again this morning",
    "The storage client said ECONNRESET in the middle of a multipart upload.",
    ...FILLER,
    "I raised the retry budget in src/net/retryPolicy.ts to five attempts.",
    "the upload works now, thanks",
    "ECONNRESET in the upload came from the proxy closing idle sockets; the retryPolicy.ts change covers it.",
    ...FILLER,
  ]);
  addSession(
    source,
    "ses_b",
    ["the dashboard upload button is grey", "It was disabled until the form validates.", ...FILLER, "retryPolicy.ts is not used by the dashboard"],
    { start: T0 + 100_000, updated: T0 + 200_000 },
  );
  return source;
}

const key = (r: { sessionId: string; message: { id: string } }) => `${r.sessionId}/${r.message.id}`;

/** What fusing each phrasing searched alone (each with its own request, to the fusion's depth) gives: keys and `by`. */
async function fusedAlone(service: InspectableSearchService, request: SearchRequest, phrasings: string[]): Promise<Array<[string, number[]]>> {
  const depth = fusedDepth((request.offset ?? 0) + (request.limit ?? 10) + 1, DEFAULT_TUNING);
  const rankings = [];
  for (const query of phrasings) {
    const { alternatives: _, ...alone } = request;
    const answer = await service.search({ ...alone, query, offset: 0, limit: depth });
    rankings.push(answer.results.slice(0, depth).map((r) => ({ key: key(r), score: r.score, item: r })));
  }
  return fuseRankings(rankings, DEFAULT_TUNING).map((f) => [f.key, f.by]);
}

describe("alternatives", () => {
  const phrasings = ["why did the upload break", "ECONNRESET", "retryPolicy.ts", "xylophone"];
  const request = (scope: SearchRequest["scope"], extra: Partial<SearchRequest> = {}): SearchRequest => ({
    query: phrasings[0]!,
    alternatives: phrasings.slice(1),
    callerSessionId: CALLER,
    ...(scope === "session" ? { sessionId: "ses_a" } : {}),
    scope,
    types: ["text", "tool"],
    limit: 10,
    ...extra,
  });

  for (const [name, scope, warm] of [
    ["one session, cold", "session", false],
    ["one session, from its index", "session", true],
    ["project scope", "project", false],
  ] as const) {
    it(`${name}: the fusion of each phrasing ranked alone, with the phrasings that found each result`, async () => {
      const source = store();
      const service = testService(source);
      if (warm) await service.buildIndex("ses_a");
      const answer = await service.search(request(scope));
      const expected = await fusedAlone(warm ? service : testService(source), request(scope), phrasings);
      expect(answer.results.map((r) => [key(r), r.by])).toEqual(expected.slice(0, 10));
      // The message holding ECONNRESET, retryPolicy.ts and upload is found by the three.
      const both = answer.results.find((r) => r.message.parts.some((p) => p.kind === "text" && p.text.includes("proxy closing")));
      expect(both?.by).toEqual([0, 1, 2]);
      expect(answer.unmatched).toEqual([3]);
      // The answer the model reads: by per message, unmatched once.
      const shown = formatSearchAnswer(answer, "none") as { messages: Array<{ by: number[] }>; unmatched: number[] };
      expect(shown.messages.map((m) => m.by)).toContainEqual([0, 1, 2]);
      expect(shown.unmatched).toEqual([3]);
    });
  }

  it("past the sessions whose reads the phrasings share (256), the others are read again: the same fusion", async () => {
    const source = new MemorySource();
    for (let i = 0; i < 300; i++) {
      addSession(
        source,
        `ses_${String(i).padStart(3, "0")}`,
        [i % 7 === 0 ? "the upload failed with ECONNRESET" : "the upload worked", FILLER[i % FILLER.length]!],
        {
          start: T0 + i * 10_000,
        },
      );
    }
    const service = testService(source, (config) => (config.search.project_time_budget_ms = 60_000));
    const asked = request("project", { query: "why did the upload fail", alternatives: ["ECONNRESET"] });
    const answer = await service.search(asked);
    expect(answer.unsearched).toBeUndefined();
    expect(answer.results.map((r) => [key(r), r.by])).toEqual((await fusedAlone(service, asked, [asked.query, "ECONNRESET"])).slice(0, 10));
    expect(answer.results[0]!.by).toEqual([0, 1]);
  });

  it("pages of the fused ranking follow one another: every result once, in the order of one long page", async () => {
    const service = testService(store());
    const whole = (await service.search(request("project", { limit: 12 }))).results.map(key);
    const paged: string[] = [];
    for (let offset: number | undefined = 0; offset !== undefined; ) {
      const page = formatSearchAnswer(await service.search(request("project", { limit: 3, offset })), "none") as {
        messages?: Array<{ session_id: string; message_id: string }>;
        next_offset?: number;
      };
      for (const m of page.messages ?? []) paged.push(`${m.session_id}/${m.message_id}`);
      offset = page.next_offset;
    }
    expect(paged.length).toBeGreaterThan(3);
    expect(paged.slice(0, whole.length)).toEqual(whole);
    expect(new Set(paged).size).toBe(paged.length);
  });

  it("without alternatives, or with only repeats of the query, answers as before: no by, no unmatched", async () => {
    const service = testService(store());
    const { alternatives: _, ...plain } = request("project");
    const before = await service.search(plain);
    expect(before.results.every((r) => r.by === undefined)).toBe(true);
    expect(before.unmatched).toBeUndefined();
    expect(await service.search({ ...plain, alternatives: [] })).toEqual(before);
    expect(await service.search({ ...plain, alternatives: [` ${plain.query} `] })).toEqual(before);
  });

  it("an alternative repeating an earlier one is searched once, under the first one's number", async () => {
    const service = testService(store());
    const answer = await service.search(request("session", { alternatives: ["ECONNRESET", "ECONNRESET"] }));
    expect(new Set(answer.results.flatMap((r) => r.by))).toEqual(new Set([0, 1]));
    expect(answer.unmatched).toBeUndefined();
  });

  it("literal and regex alternatives are taken in the query's mode", async () => {
    const service = testService(store());
    const literal = await service.search(request("session", { query: "ECONNRESET", alternatives: ["retryPolicy.ts", "no such text"], literal: true }));
    // The message holding both first, then the two each phrasing ranks second: on a tie, the query's first.
    expect(literal.results.map((r) => r.by)).toEqual([[0, 1], [0], [1]]);
    expect(literal.unmatched).toEqual([2]);
    const regex = await service.search(request("session", { query: "ECONN\\w+", alternatives: ["retry\\w+\\.ts"], regex: true }));
    expect(regex.results.map(key)).toEqual(literal.results.map(key));
    expect(regex.results.map((r) => r.by)).toEqual(literal.results.map((r) => r.by));
  });

  it("bad alternatives are refused, naming the parameter and the item", async () => {
    const service = testService(store());
    const bad: Array<[unknown, RegExp]> = [
      ["ECONNRESET", /alternatives must be a list of at most 3 strings \(got string\)/],
      [["a1", "b2", "c3", "d4"], /alternatives must be a list of at most 3 strings \(got 4 strings\)/],
      [["ECONNRESET", "  "], /alternatives\[1\] must be a non-empty string/],
      [["x".repeat(501)], /alternatives\[0\] must be at most 500 characters \(got 501\)/],
      [["ok words", 42], /alternatives\[1\] must be a string \(got number\)/],
      [["?!"], /alternatives\[0\] has no searchable word/],
    ];
    for (const [alternatives, message] of bad) {
      const asked = service.search({ ...request("session"), alternatives: alternatives as string[] });
      await expect(asked).rejects.toThrow(ArgumentError);
      await expect(asked).rejects.toThrow(message);
    }
    await expect(service.search(request("session", { regex: true, query: "ok", alternatives: ["fine", "(unclosed"] }))).rejects.toThrow(
      /alternatives\[1\]: regex is not a valid JavaScript regular expression/,
    );
  });

  it("history_sessions: the sessions' rankings fused, each with the phrasings that ranked it", async () => {
    const service = testService(store());
    const answer = await service.sessions({
      query: "grey button",
      alternatives: ["ECONNRESET", "xylophone"],
      limit: 10,
      includeChildren: true,
      callerSessionId: CALLER,
    });
    expect(answer.sessions.map((s) => [s.session.id, s.by])).toEqual([
      ["ses_b", [0]],
      ["ses_a", [1]],
    ]);
    expect(answer.unmatched).toEqual([2]);
    const shown = formatSessionsAnswer(answer, "none") as { sessions: Array<{ by: number[] }>; unmatched: number[] };
    expect(shown.sessions[1]!.by).toEqual([1]);
    expect(shown.unmatched).toEqual([2]);
    // Both phrasings rank ses_a (the upload session) and ses_b: together they put ses_a first.
    const both = await service.sessions({ query: "upload", alternatives: ["ECONNRESET retryPolicy.ts"], limit: 10, includeChildren: true });
    expect(both.sessions.map((s) => [s.session.id, s.by])).toEqual([
      ["ses_a", [0, 1]],
      ["ses_b", [0, 1]],
    ]);
    const plain = await service.sessions({ query: "upload", limit: 10, includeChildren: true });
    expect(plain.sessions.every((s) => s.by === undefined)).toBe(true);
  });
});
