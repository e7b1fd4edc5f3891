import { describe, expect, it } from "vitest";
import { browseMessages } from "./browse-messages.ts";
import { browseTurns } from "./browse-turns.ts";
import { HistoryError } from "./errors.ts";
import { assistant, compactionPair, toolCall, user } from "./testing/messages.ts";
import { buildView, messageIndex } from "./view.ts";

const options = { previewChars: 80, cap: 50, directory: "/project" };

function session() {
  const u1 = user("Please add a rate limiter to the API.");
  const a1 = assistant([toolCall("grep", { pattern: "limit" })], { finish: "tool-calls" } as never);
  const a2 = assistant([
    toolCall("edit", { filePath: "/project/src/api.ts", oldString: "x", newString: "y" }, "error", "oldString not found"),
    toolCall("edit", { filePath: "/project/src/api.ts", oldString: "a", newString: "b" }),
  ]);
  const a3 = assistant(["Added a token bucket limiter in src/api.ts."]);
  const u2 = user("Now write tests.");
  const a4 = assistant([toolCall("write", { filePath: "/project/test/api.test.ts", content: "..." })]);
  const a5 = assistant(["Tests written."]);
  return [u1, a1, a2, a3, u2, a4, a5];
}

describe("turns", () => {
  it("numbers user turns from 1 and groups assistant steps", () => {
    const view = buildView("ses_test", session(), false);
    const { turns } = browseTurns(view, { numBefore: 10, numAfter: 0 }, options);
    expect(turns.map((t) => t.turn_number)).toEqual([1, 2]);
    expect(turns[0]!.assistant).toEqual({
      preview: "Added a token bucket limiter in src/api.ts.",
      total_messages: 3,
      tool: { calls: ["1× grep", "2× edit: 1× error"], outcome: "recovered" },
      modified: ["src/api.ts"],
    });
    expect(turns[1]!.assistant?.modified).toEqual(["test/api.test.ts"]);
  });

  it("keeps turn numbers across a compaction and hides the live context in the own view", () => {
    const messages = [...session(), ...compactionPair(), user("after compaction"), assistant(["ok"])];
    const other = buildView("ses_test", messages, false);
    const own = buildView("ses_test", messages, true);
    expect(browseTurns(other, { numBefore: 10, numAfter: 0 }, options).turns.map((t) => t.turn_number)).toEqual([1, 2, 3, 4]);
    expect(browseTurns(own, { numBefore: 10, numAfter: 0 }, options).turns.map((t) => t.turn_number)).toEqual([1, 2]);
    expect(() => browseTurns(own, { turnNumber: 4, numBefore: 0, numAfter: 0 }, options)).toThrow(/hidden.*latest turn you can browse is 2/);
    expect(() => browseTurns(own, { turnNumber: 9, numBefore: 0, numAfter: 0 }, options)).toThrow(/Turn 9 not found.*turns 1 to 4/);
  });

  it("hides from tail_start_id on when the host kept a verbatim tail", () => {
    const messages = session();
    const tail = messages[4]!;
    const all = [...messages, ...compactionPair(true, tail.id)];
    const own = buildView("ses_test", all, true);
    expect(own.visibleEnd).toBe(4);
    expect(() => browseMessages(own, { messageId: tail.id, numBefore: 0, numAfter: 0 }, options)).toThrow(HistoryError);
    expect(() => browseMessages(own, { messageId: tail.id, numBefore: 0, numAfter: 0 }, options)).toThrow(
      new RegExp(`latest message you can browse is ${messages[3]!.id}`),
    );
  });

  it("does not start a turn for the host's continue-after-compaction message", () => {
    const messages = [
      user("one"),
      assistant(["a"]),
      ...compactionPair(true),
      user("Continue if you have next steps", { compactionContinue: true }),
      assistant(["b"]),
    ];
    const view = buildView("ses_test", messages, false);
    expect(view.turnNumbers).toEqual([1, 1, 2, 2, 2, 2]);
  });

  it("clamps a window past the cap and says so", () => {
    const messages = Array.from({ length: 30 }, (_, i) => [user(`q${i}`), assistant([`a${i}`])]).flat();
    const view = buildView("ses_test", messages, false);
    const result = browseTurns(view, { turnNumber: 15, numBefore: 20, numAfter: 20 }, { ...options, cap: 10 });
    expect(result.turns).toHaveLength(10);
    expect(result.turns.some((t) => t.turn_number === 15)).toBe(true);
    expect(result.note).toMatch(/clamped to 10 turns/);
  });
});

describe("messages window", () => {
  it("anchors on the latest message and links both edges", () => {
    const messages = session();
    const view = buildView("ses_test", messages, false);
    const latest = browseMessages(view, { numBefore: 2, numAfter: 0 }, options);
    expect(latest.messages.map((m) => m.message_id)).toEqual(messages.slice(4).map((m) => m.id));
    expect(latest.before_message_id).toBe(messages[3]!.id);
    expect(latest.after_message_id).toBeUndefined();
    const middle = browseMessages(view, { messageId: messages[2]!.id, numBefore: 1, numAfter: 1 }, options);
    expect(middle.messages.map((m) => m.turn_number)).toEqual([1, 1, 1]);
    expect(middle.messages[1]!.tool).toEqual({ calls: ["2× edit: 1× error"], outcome: "recovered" });
    expect(middle.messages[0]!.preview).toBe("[tool calls only]");
    expect(middle.after_message_id).toBe(messages[4]!.id);
  });

  it("names an unknown id and how to find valid ones", () => {
    const view = buildView("ses_test", session(), false);
    expect(() => browseMessages(view, { messageId: "msg_nope", numBefore: 0, numAfter: 0 }, options)).toThrow(
      /Message msg_nope not found in session ses_test\. Use history_browse_messages or history_search/,
    );
  });

  it("orders and deduplicates messages that arrive out of order", () => {
    const messages = session();
    const shuffled = [messages[3]!, messages[0]!, messages[1]!, messages[0]!, messages[2]!];
    const view = buildView("ses_test", shuffled, false);
    expect(view.messages.map((m) => m.id)).toEqual(messages.slice(0, 4).map((m) => m.id));
  });

  it("finds a message's position by its id, and no position for an id it does not hold", () => {
    const messages = session();
    const view = buildView("ses_test", [...messages].reverse(), false);
    expect(messages.map((m) => messageIndex(view.messages, m.id))).toEqual(messages.map((_, i) => i));
    // Ids sorting before, between and after the view's own.
    for (const id of ["msg_", `${messages[2]!.id}0`, `${messages.at(-1)!.id}z`]) expect(messageIndex(view.messages, id)).toBeUndefined();
    expect(messageIndex([], messages[0]!.id)).toBeUndefined();
  });
});
