import { describe, expect, it, vi } from "vitest";
import { compactionPair, textMessage } from "../../history/testing/messages.ts";
import type { HistoryMessage } from "../../history/types.ts";
import { MemorySource } from "../../store/testing/memory-source.ts";
import { toolVisibility } from "../../history/tool-visibility.ts";
import { buildView } from "../../history/view.ts";
import * as scheduler from "../../util/scheduler.ts";
import type { Query } from "../parse.ts";
import { collectSession } from "./search-one-session.ts";
import { testService } from "../testing/service.ts";
import { addSession, T0 } from "../testing/sessions.ts";
import { parseQuery } from "../text/query.ts";
import type { SearchRequest } from "../types.ts";
import { DEFAULT_TUNING } from "../tuning.ts";

// Counts the turns collectSession asks for (the scan's own slices call the real one inside scheduler.ts).
vi.mock("../../util/scheduler.ts", async (original) => {
  const real = await original<typeof import("../../util/scheduler.ts")>();
  return { ...real, yieldToLoop: vi.fn(real.yieldToLoop) };
});

describe("collectSession", () => {
  it("starts a cold scan and its ranking each on a turn of its own when asked (one session), else only when a slice is spent", async () => {
    const messages = ["The invoice helpers were renamed.", "Totals are rounded last."].map((text, i) =>
      textMessage("s1", i === 0 ? "user" : "assistant", text, i * 1000),
    );
    const view = buildView("s1", messages, false);
    const query: Query = { kind: "keyword", text: "invoice helpers", parsed: parseQuery("invoice helpers", DEFAULT_TUNING) };
    const filters = { types: new Set<"text" | "tool">(["text", "tool"]) };
    const yieldToLoop = vi.mocked(scheduler.yieldToLoop);
    const turnsAsked = async (turnPerPhase: boolean): Promise<number> => {
      await scheduler.yieldToLoop(); // a fresh slice: this small scan never spends one
      yieldToLoop.mockClear();
      const collected = await collectSession(view, query, filters, { tuning: DEFAULT_TUNING, visibility: toolVisibility([], []), turnPerPhase });
      expect(collected.docs.length).toBe(1);
      return yieldToLoop.mock.calls.length;
    };
    expect(await turnsAsked(false)).toBe(0);
    expect(await turnsAsked(true)).toBe(2);
  });
});

describe("collectSession over the caller's own view", () => {
  const visibility = toolVisibility([], []);
  const filters = { types: new Set<"text" | "tool">(["text", "tool"]) };
  const query: Query = { kind: "keyword", text: "walrus protocol", parsed: parseQuery("walrus protocol", DEFAULT_TUNING) };
  /** The caller's session: `before` messages before its last compaction, `live` after it (in the model's context). */
  function session(before: number, live: number): HistoryMessage[] {
    const line = (i: number) => (i % 2 === 0 ? `The walrus protocol, note ${i}.` : `Other matters, note ${i}.`);
    const at = (i: number) => T0 + i * 1000;
    const head = Array.from({ length: before }, (_, i) => textMessage("ses_self", i % 2 ? "assistant" : "user", line(i), at(i)));
    const compaction = compactionPair(true).map((message, i) => ({ ...message, sessionId: "ses_self", created: at(before + i) }));
    const tail = Array.from({ length: live }, (_, i) => textMessage("ses_self", i % 2 ? "assistant" : "user", line(before + i), at(before + 2 + i)));
    return [...head, ...compaction, ...tail];
  }

  it("counts only what the view shows, from the index when it hides little and by a scan when it hides most", async () => {
    for (const [before, live, via] of [
      [8, 2, "index"],
      [2, 8, "scan"],
    ] as const) {
      const source = new MemorySource();
      const messages = session(before, live);
      source.add({ id: "ses_self", title: "self", created: T0, updated: T0 + 60_000 }, messages);
      const builder = await testService(source).buildIndex("ses_self");
      const view = buildView("ses_self", messages, true);
      const reference = await collectSession(view, query, filters, { tuning: DEFAULT_TUNING, visibility });
      const collected = await collectSession(view, query, filters, { tuning: DEFAULT_TUNING, visibility, builder: builder! });
      expect(collected.via).toBe(via);
      expect(collected.stats).toEqual(reference.stats);
      expect(reference.stats!.docs).toBeGreaterThan(0);
    }
  });
});

// Words of one length: messages of as many words are as long, and score alike.
const FILLER = ["alpha", "bravo", "delta", "gamma", "omega", "sigma", "kappa", "theta"];

/**
 * `n` messages holding the three words, in blocks of 100 of one length each (a block's messages
 * score alike, the next block's a little lower), among four times as many of other words: a
 * search's best 53 are all ties, which the depth check cannot settle without the next block.
 */
function alike(n: number): string[] {
  const filler = (i: number, words: number) => Array.from({ length: words }, (_, j) => FILLER[(i + j) % FILLER.length]).join(" ");
  // Four messages of other words to each that holds them: the three words are rare enough to weigh.
  return Array.from({ length: 5 * n }, (_, i) =>
    i % 5 === 0 ? `token bucket limiter ${filler(i, 20 + 5 * Math.floor(i / 500))}` : `unrelated ${filler(i, 20)}`,
  );
}

describe("the index asked for more of its best messages while they may not hold the depth", () => {
  it("asks again for four times as many, never for every match at once, and ranks as the scan does", async () => {
    const source = new MemorySource();
    addSession(source, "s1", alike(600));
    const request: SearchRequest = {
      query: "token bucket limiter",
      callerSessionId: "ses_other",
      sessionId: "s1",
      scope: "session",
      types: ["text", "tool"],
      limit: 10,
    };
    const cold = (await testService(source).search(request)).results.map((r) => [r.message.id, r.score]);
    const service = testService(source);
    const builder = (await service.buildIndex("s1"))!;
    const search = vi.spyOn(builder.index, "search");
    const warm = (await service.search(request)).results.map((r) => [r.message.id, r.score]);
    const asks = search.mock.calls.map((call) => call[3]!);
    const messagesGiven = search.mock.results.map((result) => new Set((result.value as { message: { id: string } }[]).map((hit) => hit.message.id)).size);
    // The first ask's best messages are one block of ties; the next ask reaches the block below.
    expect(asks.length).toBeGreaterThan(1);
    for (let i = 1; i < asks.length; i++) expect(asks[i]).toBe(asks[i - 1]! * 4);
    expect(messagesGiven.at(-1)).toBeLessThan(600);
    expect(warm).toEqual(cold);
  });
});
