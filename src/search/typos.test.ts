import { describe, expect, it } from "vitest";
import { textMessage } from "../history/testing/messages.ts";
import { MemorySource } from "../host/testing/memory-source.ts";
import { formatSearchAnswer } from "./format.ts";
import { testService } from "./testing/service.ts";
import { editDistance, maxEdits, rewriteQuery } from "./text/typos.ts";

const T0 = Date.UTC(2025, 0, 1);

describe("typo corrections", () => {
  it("measure edits with swaps of neighbours, and allow more for longer words", () => {
    expect(editDistance("foriegn", "foreign", 2)).toBe(1);
    expect(editDistance("histgram", "histogram", 2)).toBe(1);
    expect(editDistance("cat", "dog", 1)).toBe(2);
    expect([maxEdits(3), maxEdits(5), maxEdits(9)]).toEqual([0, 1, 2]);
    expect(rewriteQuery("Step Histgram cut", new Map([["histgram", "histogram"]]))).toBe("Step histogram cut");
  });

  it("search a word found nowhere as its nearest indexed term once the index is built, and say so", async () => {
    const source = new MemorySource();
    const messages = [
      textMessage("s1", "user", "The step histogram is cut off at the top.", T0),
      textMessage("s1", "assistant", "The y limits ignore the path simplification.", T0 + 1000),
      textMessage("s1", "user", "Please check the README for setup steps.", T0 + 2000),
    ];
    source.add({ id: "s1", title: "t", created: T0, updated: T0 }, messages);
    const service = testService(source);
    await service.indexed("s1");
    {
      const answer = await service.search({ query: "histgram simplifcation", callerSessionId: "other", sessionId: "s1", scope: "session", types: ["text"] });
      expect(answer.results.map((r) => r.message.id).slice(0, 2).sort()).toEqual([messages[0]!.id, messages[1]!.id].sort());
      expect(formatSearchAnswer(answer, "").searched_instead).toEqual({ histgram: "histogram", simplifcation: "simplification" });
    }
  });

  it("leave words that match, short words and numbers alone", async () => {
    const source = new MemorySource();
    source.add({ id: "s1", title: "t", created: T0, updated: T0 }, [textMessage("s1", "user", "The cat sat on version 3 of the mat.", T0)]);
    const answer = await testService(source).search({ query: "cat dog 4 mats", callerSessionId: "other", sessionId: "s1", scope: "session", types: ["text"] });
    expect(answer.corrections).toBeUndefined();
  });
});
