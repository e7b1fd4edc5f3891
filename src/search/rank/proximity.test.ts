import { describe, expect, it } from "vitest";
import { textMessage } from "../../history/testing/messages.ts";
import type { HistoryMessage } from "../../history/types.ts";
import { MemorySource } from "../../store/testing/memory-source.ts";
import { FILLER } from "../testing/filler.ts";
import { idsOnBothPaths } from "../testing/service.ts";
import { parseQuery } from "../text/query.ts";
import { bestSpan, contentOccurrences, proximityBoost, reorderFirst } from "./proximity.ts";
import type { Group } from "./rank.ts";
import type { ScoredDoc } from "../types.ts";
import { TUNING } from "../tuning.ts";

const span = (query: string, text: string) => {
  const parsed = parseQuery(query);
  return bestSpan(contentOccurrences(parsed, text), parsed.groups, TUNING.proximity.window);
};

describe("proximity span", () => {
  it("finds the shortest stretch holding the most content words, function words left out", () => {
    const text = "why did the deploy fail? The token was fine. Later: the registry token expired, so the deploy failed.";
    // All five content words (`failed` is a form of fail); the stretch from the first `deploy` holds them too, but longer.
    expect(span("why did the deploy fail after the registry token expired", text)).toEqual({
      words: 5,
      length: "registry token expired, so the deploy failed".length,
    });
    expect(span("why was the deploy so slow", "why was the deploy so slow")).toEqual({ words: 2, length: "deploy so slow".length });
  });

  it("matches words as the tokenizer does: other forms of a word, identifier parts, a path only whole", () => {
    expect(span("printed debug output", "it prints the debugOutput").words).toBe(3);
    expect(span("edit src/deploy/run.py token", "the deploy token, run it").words).toBe(0);
    expect(span("edit src/deploy/run.py token", "in src/deploy/run.py the token").words).toBe(2);
  });

  it("ignores words further apart than the window", () => {
    expect(span("ledger rounding drift", `ledger ${"x ".repeat(TUNING.proximity.window)} rounding`).words).toBe(0);
  });
});

describe("proximity boost", () => {
  const query = parseQuery("why did the ledger rounding drift grow");

  it("rises with the words gathered and with how tight they stand", () => {
    const all = proximityBoost(query, "the ledger showed a rounding drift that grows");
    const loose = proximityBoost(query, `the ledger showed a ${"long ".repeat(30)}rounding drift that grows`);
    const three = proximityBoost(query, "the ledger showed a rounding drift");
    expect(all).toBeGreaterThan(loose);
    expect(loose).toBeGreaterThan(1);
    expect(all).toBeGreaterThan(three);
    expect(three).toBeGreaterThan(1);
    expect(all).toBeLessThanOrEqual(1 + TUNING.proximity.boost);
  });

  it("needs three content words together: two near each other tell little", () => {
    expect(proximityBoost(query, "the ledger showed a rounding error")).toBe(1);
    expect(proximityBoost(query, `ledger ${"x ".repeat(TUNING.proximity.window)} rounding drift grows`)).toBeGreaterThan(1);
    expect(proximityBoost(parseQuery("why the rounding drift"), "rounding drift")).toBe(1);
  });

  it("leaves a question asking for a command run to the intent boost (prose restating a command holds its words closer than the call)", () => {
    const asked = parseQuery("how did we run pylint recursively while ignoring the folder");
    expect(asked.intent).toBeDefined();
    expect(proximityBoost(asked, "I ran pylint recursively, ignoring the folder")).toBe(1);
    expect(proximityBoost(parseQuery("why was pylint recursively ignoring the folder"), "I ran pylint recursively, ignoring the folder")).toBeGreaterThan(1);
  });
});

describe("reordering the first results", () => {
  const TOGETHER = "the ledger showed a rounding drift that grows";
  const SCATTERED = `the ledger ${"step ".repeat(80)} rounding ${"step ".repeat(80)} drift`;
  /** One single-chunk result per text, scored from `top` down in steps of 0.1. */
  const ranked = (texts: string[], top: number): Array<{ group: Group }> =>
    texts.map((text, i) => {
      const message: HistoryMessage = { id: `msg_${i}`, sessionId: "s1", role: "assistant", parts: [] };
      const score = top - i * 0.1;
      const doc: ScoredDoc = { message, partId: `prt_${i}`, type: "text", start: 0, end: text.length, score, text };
      return { group: { message, docs: [doc], score } };
    });
  const textOf = (doc: ScoredDoc) => doc.text!;
  const ids = (list: Array<{ group: Group }>) => list.map(({ group }) => group.message.id);

  it("raises the first results holding the words together and sorts them again, the rest as they were", () => {
    const count = TUNING.proximity.results;
    const texts = Array.from({ length: count + 2 }, (_, i) => (i === 2 || i === count + 1 ? TOGETHER : SCATTERED));
    const list = ranked(texts, 10);
    const past = list[count + 1]!.group.score;
    reorderFirst(list, parseQuery("why did the ledger rounding drift grow"), textOf);
    expect(ids(list).slice(0, 3)).toEqual(["msg_2", "msg_0", "msg_1"]);
    expect(list[0]!.group.score).toBeGreaterThan(10 - 0.2);
    // Past the first results: not looked at, however close its words stand.
    expect(ids(list).slice(count)).toEqual([`msg_${count}`, `msg_${count + 1}`]);
    expect(list[count + 1]!.group.score).toBe(past);
  });

  it("leaves a command question's results to the intent boost", () => {
    const list = ranked([SCATTERED, TOGETHER], 5);
    const asked = parseQuery("how did we run the ledger rounding drift script");
    expect(asked.intent).toBeDefined();
    reorderFirst(list, asked, textOf);
    expect(ids(list)).toEqual(["msg_0", "msg_1"]);
  });
});

describe("ranking", () => {
  it("puts the message holding the query's words together above one holding the same words scattered", async () => {
    const T0 = Date.UTC(2025, 0, 1);
    let minute = 0;
    const text = (body: string): HistoryMessage => textMessage("s1", "assistant", body, T0 + ++minute * 60_000);
    // The same words, so the same length and term counts: BM25 ties them, and the newer (scattered) would win the tie.
    const filler = Array.from({ length: 60 }, (_, i) => `step${i}`);
    const together = ["the", "ledger", "showed", "a", "rounding", "drift", ...filler].join(" ");
    const scattered = ["the", "ledger", ...filler.slice(0, 30), "showed", "a", "rounding", ...filler.slice(30), "drift"].join(" ");
    expect(together.length).toBe(scattered.length);
    const messages = [...FILLER.map(text), text(together), text(scattered)];
    const source = new MemorySource();
    source.add({ id: "s1", title: "session", created: T0, updated: T0 }, messages);
    const { cold, warm } = await idsOnBothPaths(source, "s1", "why did the ledger rounding drift");
    const first = messages[FILLER.length]!.id;
    expect([cold[0], warm[0]]).toEqual([first, first]);
  });
});
