import { describe, expect, it } from "vitest";
import { assistant, compactionPair, user } from "./testing/messages.ts";
import { isCompactionSummary } from "./summaries.ts";

const OPENING = "This session is being continued from a previous conversation that ran out of context.";

describe("isCompactionSummary", () => {
  it("recognises the host's summary and one carried in as a user message", () => {
    expect(isCompactionSummary(compactionPair()[1]!)).toBe(true);
    expect(isCompactionSummary(user(`${OPENING} The summary below covers the earlier portion.`))).toBe(true);
  });

  it("leaves other messages alone, the compaction request and a quote of the opening included", () => {
    expect(isCompactionSummary(compactionPair()[0]!)).toBe(false);
    expect(isCompactionSummary(assistant([OPENING]))).toBe(false);
    expect(isCompactionSummary(user(`Claude Code starts its summaries with "${OPENING}"`))).toBe(false);
    expect(isCompactionSummary(user([{ kind: "text", id: "prt_1", text: OPENING, ignored: true }]))).toBe(false);
  });
});
