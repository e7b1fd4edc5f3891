// The core over sessions captured from a real OpenCode 1.18.33 (see testing/fixtures/README.md).

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { mapMessage } from "../store/map.ts";
import { browseMessages } from "./browse-messages.ts";
import { browseTurns } from "./browse-turns.ts";
import { pullMessage } from "./pull-message.ts";
import { pullPart } from "./pull-part.ts";
import { toolVisibility } from "./tool-visibility.ts";
import type { HistoryMessage } from "./types.ts";
import { buildView } from "./view.ts";

function fixture(name: string): HistoryMessage[] {
  const raw = JSON.parse(readFileSync(new URL(`./testing/fixtures/${name}`, import.meta.url), "utf8")) as unknown[];
  return raw.map((entry) => mapMessage(entry)).filter((message): message is HistoryMessage => message !== undefined);
}

const messages = fixture("main-session.json");
const sessionId = messages[0]!.sessionId;
const options = { previewChars: 160, cap: 50, directory: "/project" };
const visibility = toolVisibility([], []);

describe("captured main session", () => {
  it("maps every message, dropping step parts", () => {
    expect(messages).toHaveLength(25);
    expect(messages.flatMap((m) => m.parts).some((p) => (p.kind as string).startsWith("step"))).toBe(false);
  });

  it("gives a turn per user message (the compaction request included), with tool summaries and modified files", () => {
    const { turns } = browseTurns(buildView(sessionId, messages, false), { numBefore: 20, numAfter: 0 }, options);
    expect(turns.map((t) => t.turn_number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(turns[0]!.assistant).toMatchObject({ total_messages: 3, tool: { calls: ["1× bash", "1× write"], outcome: "completed" }, modified: ["hello.txt"] });
    expect(turns[1]!.assistant).toMatchObject({ tool: { calls: ["1× read", "2× edit: 1× error"], outcome: "recovered" }, modified: ["hello.txt"] });
    expect(turns[3]!.user).toMatchObject({ preview: "Summarize the attached notes.", attachment: ["notes.txt"] });
    expect(turns[5]!.user?.preview).toBe("[compaction request]");
    expect(turns[5]!.assistant?.preview).toBe("[compacted summary]");
  });

  it("hides the compaction and everything after it in the session's own view", () => {
    const own = buildView(sessionId, messages, true);
    const compaction = messages.findIndex((m) => m.parts.some((p) => p.kind === "compaction"));
    expect(own.visibleEnd).toBe(compaction);
    const latest = browseMessages(own, { numBefore: 1, numAfter: 0 }, options);
    expect(latest.messages.map((m) => m.message_id)).toEqual([messages[compaction - 2]!.id, messages[compaction - 1]!.id]);
    expect(() => pullMessage(own, messages[compaction + 1]!.id, { sectionChars: 2000, visibility, directory: "/project" })).toThrow(/hidden/);
  });

  it("pulls the failed edit with its error and the task call's output", () => {
    const view = buildView(sessionId, messages, false);
    const failed = messages.find((m) => m.parts.some((p) => p.kind === "tool" && p.tool === "edit" && p.status === "error"))!;
    const pulled = pullMessage(view, failed.id, { sectionChars: 2000, visibility, directory: "/project" });
    expect(pulled.sections[0]).toMatchObject({ type: "tool", tool: "edit", status: "error" });
    expect(String(pulled.sections[0]!.content)).toMatch(/oldString|not found|Could not find/i);
    const task = messages.find((m) => m.parts.some((p) => p.kind === "tool" && p.tool === "task"))!;
    const taskPart = task.parts.find((p) => p.kind === "tool")!;
    const content = pullPart(view, { messageId: task.id, partId: taskPart.id, offset: 0, limit: 20_000 }, visibility).content;
    expect(content).toMatch(/^task\(/);
    expect(content).toMatch(/<task id="ses_/);
  });
});
