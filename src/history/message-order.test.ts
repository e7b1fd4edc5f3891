import { describe, expect, it } from "vitest";
import { assistant, nextId, user } from "./testing/messages.ts";
import { inSessionOrder, insertionIndex, messageIndex } from "./message-order.ts";
import type { HistoryMessage } from "./types.ts";
import { buildView, liveContextStart } from "./view.ts";

/** Messages whose ids sort against their positions (a host that copies rows under new ids, say). */
function positioned(): HistoryMessage[] {
  return [
    user("first", { id: "msg_fork_9", position: 9 }),
    assistant(["second"], { id: "msg_fork_10", position: 10 }),
    user("third", { id: "msg_fork_100", position: 100 }),
    assistant(["fourth"], { id: "msg_a_new", position: 101 }),
  ];
}

describe("session order", () => {
  it("follows positions when messages have them, ids otherwise", () => {
    const messages = positioned();
    expect(
      [...messages]
        .reverse()
        .sort(inSessionOrder)
        .map((m) => m.id),
    ).toEqual(messages.map((m) => m.id));
    const plain = [user("b", { id: "msg_b" }), user("a", { id: "msg_a" })];
    expect(plain.sort(inSessionOrder).map((m) => m.id)).toEqual(["msg_a", "msg_b"]);
  });

  it("builds a view in position order and finds each message by its id", () => {
    const messages = positioned();
    const view = buildView("ses_test", [messages[2]!, messages[0]!, messages[3]!, messages[1]!], false);
    expect(view.messages.map((m) => m.id)).toEqual(messages.map((m) => m.id));
    expect(messages.map((m) => messageIndex(view.messages, m.id))).toEqual([0, 1, 2, 3]);
    expect(messageIndex(view.messages, "msg_fork_1")).toBeUndefined();
    expect(view.turnNumbers).toEqual([1, 1, 2, 2]);
  });

  it("inserts a message where its position puts it", () => {
    const messages = positioned();
    const late = user("late", { id: "msg_0", position: 50 });
    expect(insertionIndex(messages, late)).toBe(2);
    const plain = [user("a", { id: "msg_a" }), user("c", { id: "msg_c" })];
    expect(insertionIndex(plain, user("b", { id: "msg_b" }))).toBe(1);
  });
});

describe("live context start", () => {
  it("is the last message holding a compaction part, whatever its role", () => {
    const before = [user("question"), assistant(["answer"])];
    const compaction = assistant([{ kind: "compaction", id: nextId("prt"), auto: true }, "summary"], { summary: true });
    const after = [user("next"), assistant(["reply"])];
    const messages = [...before, compaction, ...after];
    expect(liveContextStart(messages)).toBe(2);
    expect(buildView("ses_test", messages, true).visibleEnd).toBe(2);
    expect(buildView("ses_test", messages, false).visibleEnd).toBe(5);
  });
});
