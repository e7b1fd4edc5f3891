// Big and odd history through the real plugin over a fake host client: 20,000 messages, 5 MB
// parts, binary-looking tool output, messages without parts or times, duplicate ids, unknown part
// types, unfinished tools, aborted and errored messages. Every answer stays under the byte cap.

import { beforeAll, describe, expect, it } from "vitest";
import { toolPartText } from "../history/tool-text.ts";
import { toolVisibility } from "../history/tool-visibility.ts";
import { deepFreeze, FakeClient } from "../store/testing/fake-client.ts";
import { bigSession, messageIds, oddSession, type OddSession } from "./testing/odd-history.ts";
import { callTool, preview, problemWith, startPlugin, toolContext, type Outcome, type PluginUnderTest } from "../opencode1/testing/plugin-under-test.ts";

const BIG = "ses_big";
const ODD = "ses_odd";
const CALLER = "ses_caller";

type Json = Record<string, any>;

let plugin: PluginUnderTest;
let odd: OddSession;
let bigIds: string[];

async function call(tool: string, args: Record<string, unknown>): Promise<Outcome> {
  const outcome = await callTool(plugin, tool, args, toolContext(CALLER, plugin.directory));
  const problem = problemWith(outcome);
  if (problem) throw new Error(`${tool} ${preview(args)}: ${problem}`);
  return outcome;
}

async function answer(tool: string, args: Record<string, unknown>): Promise<Json> {
  const outcome = await call(tool, args);
  if (!outcome.ok) throw new Error(`${tool} ${preview(args)} failed: ${outcome.message}`);
  return outcome.json as Json;
}

/** Reads a whole part page by page, as a model following next_offset would. */
async function pullWhole(messageId: string, partId: string, limit?: number): Promise<{ text: string; pages: number }> {
  let text = "";
  let offset: number | undefined = 0;
  let pages = 0;
  while (offset !== undefined) {
    const page = await answer("history_pull_part", { session_id: ODD, message_id: messageId, part_id: partId, offset, limit });
    pages++;
    expect(page.content.length, `page at offset ${offset} is empty`).toBeGreaterThan(0);
    text += page.content;
    if (page.next_offset !== undefined) expect(page.next_offset).toBe(offset + page.content.length);
    offset = page.next_offset;
  }
  return { text, pages };
}

beforeAll(async () => {
  const fake = new FakeClient();
  const big = bigSession(BIG);
  bigIds = messageIds(big.messages);
  fake.addSession(BIG, big.messages);
  odd = oddSession(ODD);
  fake.addSession(ODD, odd.builder.messages);
  fake.addSession(CALLER, []);
  // Megabytes per read: serve the stored objects, frozen, instead of copies.
  for (const session of fake.sessions.values()) deepFreeze(session.messages);
  fake.cloneReads = false;
  plugin = await startPlugin({ fake });
}, 120_000);

describe("a 20,000-message session", () => {
  it("reads all of it and browses turns at the start, middle and end within bounds, clamping the window", async () => {
    const latest = await answer("history_browse_turns", { session_id: BIG, num_before: 100 });
    expect(latest.turns.at(-1).turn_number).toBe(10_000);
    expect(latest.note).toMatch(/clamped|cut/);
    const first = await answer("history_browse_turns", { session_id: BIG, turn_number: 1, num_after: 100 });
    expect(first.turns[0].turn_number).toBe(1);
    const middle = await answer("history_browse_turns", { session_id: BIG, turn_number: 5000, num_before: 100, num_after: 100 });
    expect(middle.turns.map((t: Json) => t.turn_number)).toContain(5000);
  });

  it("browses messages in windows of up to 201 around any message, with edge ids to page on", async () => {
    for (const anchor of [bigIds[0], bigIds[9_999], bigIds.at(-1)]) {
      const window = await answer("history_browse_messages", { session_id: BIG, message_id: anchor, num_before: 100, num_after: 100 });
      expect(window.messages.some((m: Json) => m.message_id === anchor)).toBe(true);
      if (window.before_message_id) expect(bigIds).toContain(window.before_message_id);
    }
    // Paging backwards with before_message_id reaches earlier messages without gaps.
    const last = await answer("history_browse_messages", { session_id: BIG, num_before: 100 });
    const previous = await answer("history_browse_messages", { session_id: BIG, message_id: last.before_message_id, num_before: 100 });
    expect(previous.messages.at(-1).message_id).toBe(last.before_message_id);
    expect(bigIds.indexOf(previous.messages.at(-1).message_id) + 1).toBe(bigIds.indexOf(last.messages[0].message_id));
  });

  it("pulls messages anywhere in it", async () => {
    for (const id of [bigIds[0], bigIds[1], bigIds[12_345], bigIds.at(-1)]) {
      expect((await answer("history_pull_message", { session_id: BIG, message_id: id })).message_id).toBe(id);
    }
  });
});

describe("odd history", () => {
  it("browses every message of it, alone and in windows", async () => {
    const ids = messageIds(odd.builder.messages);
    for (const id of ids) {
      const outcome = await call("history_browse_messages", { session_id: ODD, message_id: id, num_before: 3, num_after: 3 });
      expect(outcome.ok, `browse around ${id}: ${outcome.ok ? "" : outcome.message}`).toBe(true);
    }
    const all = await answer("history_browse_messages", { session_id: ODD, num_before: 100 });
    expect(all.messages.length + (all.before_message_id ? 1 : 0)).toBeGreaterThan(1);
    const turns = await answer("history_browse_turns", { session_id: ODD, num_before: 100 });
    expect(turns.turns.length).toBeGreaterThan(0);
  });

  it("pulls every message of it in full detail or with a note", async () => {
    for (const id of messageIds(odd.builder.messages)) {
      const outcome = await call("history_pull_message", { session_id: ODD, message_id: id });
      expect(outcome.ok, `pull ${id}: ${outcome.ok ? "" : outcome.message}`).toBe(true);
    }
  });

  it("pages through a 5 MB text part and reassembles it exactly", async () => {
    const { text, pages } = await pullWhole(odd.bigText.messageId, odd.bigText.partId);
    expect(pages).toBeGreaterThan(5_000_000 / 40_000);
    expect(text === odd.bigText.text).toBe(true);
  }, 120_000);

  it("pages through a 5 MB binary-looking tool output and reassembles it exactly", async () => {
    const expected = toolPartText(
      {
        kind: "tool",
        id: odd.bigOutput.partId,
        callId: "",
        tool: "bash",
        status: "completed",
        input: { command: odd.bigOutput.command },
        output: odd.bigOutput.output,
      },
      toolVisibility([], []),
    );
    const { text } = await pullWhole(odd.bigOutput.messageId, odd.bigOutput.partId, 40_000);
    expect(text.length).toBe(expected.length);
    expect(text === expected).toBe(true);
  }, 300_000);

  it("reads a pending tool part as the call so far", async () => {
    const unfinished = odd.builder.messages.find((m) => (m.parts as Json[]).some((p) => p?.state?.status === "pending"))!;
    const part = (unfinished.parts as Json[])[0]!;
    const outcome = await call("history_pull_part", { session_id: ODD, message_id: (unfinished.info as Json).id, part_id: part.id });
    expect(outcome).toMatchObject({ ok: true });
  });

  it("never called anything but reads", () => {
    expect(plugin.violations).toEqual([]);
  });
});
