import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { visibleIndex, buildView, messageIndex } from "../history/view.ts";
import type { HistoryMessage } from "../history/types.ts";
import { mapMessage } from "../store/map.ts";
import { buildChart, fallbackChart, type ChartOptions } from "./chart.ts";
import { SessionBuilder } from "../history/testing/session-builder.ts";

const options: ChartOptions = { recentTurns: 10, recentMessages: 5, maxChars: 6000, previewChars: 160, directory: "/project" };

function citedIds(chart: string): string[] {
  return [...new Set(chart.match(/msg_[A-Za-z0-9]+/g) ?? [])];
}

function jsonLines(chart: string): Record<string, unknown>[] {
  return chart
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A session as the store holds it when the summary text completes: history, compaction, summary. */
function compactedSession(turns: number): { builder: SessionBuilder; compaction: HistoryMessage } {
  const builder = new SessionBuilder("ses_chart").turns(turns);
  const compaction = builder.compaction();
  builder.summary("raw summarizer text");
  return { builder, compaction };
}

describe("buildChart", () => {
  it("names the session, shows the latest turns and messages, and says how to go further", () => {
    const { builder } = compactedSession(30);
    const chart = buildChart(buildView("ses_chart", builder.messages, true), options);

    expect(chart).toContain("ses_chart");
    const entries = jsonLines(chart);
    const turns = entries.filter((entry) => "turn_number" in entry && !("message_id" in entry));
    const messages = entries.filter((entry) => "message_id" in entry);
    expect(turns.map((turn) => turn.turn_number)).toEqual([21, 22, 23, 24, 25, 26, 27, 28, 29, 30]);
    expect(messages).toHaveLength(5);
    // The window ends at the last message before the compaction.
    expect(messages.at(-1)!.message_id).toBe(builder.messages[59]!.id);
    expect(chart).toContain("history_browse_turns(turn_number=21, num_before=10)");
    expect(chart).toContain(`history_browse_messages(message_id="${builder.messages[54]!.id}", num_before=10)`);
    expect(chart).toContain("history_pull_message(");
    expect(chart).toContain("history_search(");
    expect(chart).not.toContain("raw summarizer text");
    expect(chart.length).toBeLessThanOrEqual(options.maxChars);
  });

  it("cites only ids the session's own view accepts after the compaction", () => {
    const { builder } = compactedSession(30);
    const chart = buildChart(buildView("ses_chart", builder.messages, true), options);
    // Later traffic does not change what the chart may cite.
    builder.user("next question");
    builder.assistant("next answer");
    const after = buildView("ses_chart", builder.messages, true);
    const ids = citedIds(chart);
    expect(ids.length).toBeGreaterThan(5);
    for (const id of ids) expect(() => visibleIndex(after, id)).not.toThrow();
  });

  it("respects recent_turns and recent_messages", () => {
    const { builder } = compactedSession(8);
    const chart = buildChart(buildView("ses_chart", builder.messages, true), { ...options, recentTurns: 3, recentMessages: 2 });
    const entries = jsonLines(chart);
    expect(entries.filter((entry) => !("message_id" in entry)).map((turn) => turn.turn_number)).toEqual([6, 7, 8]);
    expect(entries.filter((entry) => "message_id" in entry)).toHaveLength(2);
  });

  it("shortens previews before dropping entries", () => {
    const { builder } = compactedSession(30);
    const view = buildView("ses_chart", builder.messages, true);
    const roomy = buildChart(view, { ...options, maxChars: 40000 });
    const tight = buildChart(view, { ...options, maxChars: 4000 });
    expect(tight.length).toBeLessThanOrEqual(4000);
    expect(tight.length).toBeLessThan(roomy.length);
    // Same entries, shorter previews.
    expect(jsonLines(tight).map((entry) => entry.turn_number)).toEqual(jsonLines(roomy).map((entry) => entry.turn_number));
  });

  it("drops the oldest entries when short previews are not enough, never the session id or the guidance", () => {
    const { builder } = compactedSession(50);
    const view = buildView("ses_chart", builder.messages, true);
    const chart = buildChart(view, { ...options, recentTurns: 50, recentMessages: 50, maxChars: 1500 });
    expect(chart.length).toBeLessThanOrEqual(1500);
    expect(chart).toContain("# History chart (session ses_chart)");
    expect(chart).toContain("history_search(");
    expect(chart).toContain("history_pull_message(");
    expect(chart).toContain("record of truth");
    const entries = jsonLines(chart);
    const turns = entries.filter((entry) => !("message_id" in entry));
    const messages = entries.filter((entry) => "message_id" in entry);
    // What is kept is the newest.
    if (turns.length > 0) expect(turns.at(-1)!.turn_number).toBe(50);
    if (messages.length > 0) {
      expect(messages.at(-1)!.message_id).toBe(builder.messages[99]!.id);
      // Paging back starts right before the first message shown.
      const first = messageIndex(view.messages, messages[0]!.message_id as string)!;
      expect(chart).toContain(`history_browse_messages(message_id="${view.messages[first - 1]!.id}"`);
    }
  });

  it("charts an empty history without inventing ids", () => {
    const builder = new SessionBuilder("ses_empty");
    builder.compaction();
    builder.summary("nothing");
    const chart = buildChart(buildView("ses_empty", builder.messages, true), options);
    expect(chart).toContain("ses_empty");
    expect(chart).toContain("No earlier messages");
    expect(citedIds(chart)).toEqual([]);
  });

  it("charts a real host session (captured fixture) with ids that resolve after the compaction", () => {
    const raw = JSON.parse(readFileSync(new URL("../history/testing/fixtures/main-session.json", import.meta.url), "utf8")) as unknown[];
    const all = raw.map((entry) => mapMessage(entry)).filter((message): message is HistoryMessage => message !== undefined);
    const sessionId = all[0]!.sessionId;
    const summaryIndex = all.findIndex((message) => message.summary === true);
    // The store as it stands when the summary text completes.
    const atCompletion = all.slice(0, summaryIndex + 1);
    const chart = buildChart(buildView(sessionId, atCompletion, true), options);
    const after = buildView(sessionId, all, true);
    expect(chart).toContain(sessionId);
    const ids = citedIds(chart);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(() => visibleIndex(after, id)).not.toThrow();
  });
});

describe("fallbackChart", () => {
  it("is short, names the session and points at the tools", () => {
    const text = fallbackChart("ses_fallback");
    expect(text).toContain("ses_fallback");
    for (const tool of ["history_browse_turns", "history_browse_messages", "history_pull_message", "history_search"]) {
      expect(text).toContain(tool);
    }
    expect(text.length).toBeLessThan(1500);
  });
});
