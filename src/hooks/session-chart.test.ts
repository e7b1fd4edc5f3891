import { describe, expect, it } from "vitest";
import { SessionBuilder } from "../history/testing/session-builder.ts";
import { chartView, checkpointView } from "./session-chart.ts";

describe("chartView", () => {
  it("stops before the verbatim tail, the compaction and the summary even when the store lags", () => {
    const builder = new SessionBuilder("ses_v").turns(6);
    const lastSummarized = builder.messages[7]!; // the tail starts at messages[8]
    const stale = [...builder.messages]; // the store has not seen the compaction yet
    const view = chartView("ses_v", stale, { lastSummarizedId: lastSummarized.id, summaryMessageId: "msg_999999" });
    expect(view.visibleEnd).toBe(8);
    const compaction = builder.compaction();
    const summary = builder.summary("s");
    const fresh = chartView("ses_v", builder.messages, { compactionMessageId: compaction.id, summaryMessageId: summary.id });
    expect(fresh.visibleEnd).toBe(12);
  });
});

describe("checkpointView (OpenCode 2: the hook runs before the new checkpoint is stored)", () => {
  it("covers every stored message up to the last one summarized, past an earlier checkpoint", () => {
    const builder = new SessionBuilder("ses_v").turns(3);
    builder.compaction();
    builder.summary("earlier checkpoint");
    builder.turns(3);
    const own = chartView("ses_v", builder.messages, {});
    expect(own.visibleEnd).toBe(6); // the own view still ends at the earlier checkpoint
    const lastSummarized = builder.messages[11]!;
    const view = checkpointView("ses_v", builder.messages, lastSummarized.id);
    expect(view.visibleEnd).toBe(12);
    expect(view.self).toBe(true);
    expect(checkpointView("ses_v", builder.messages, undefined).visibleEnd).toBe(builder.messages.length);
  });
});
