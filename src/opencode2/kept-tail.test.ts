import { describe, expect, it } from "vitest";
import { assistant, nextId, toolCall, user } from "../history/testing/messages.ts";
import type { HistoryMessage } from "../history/types.ts";
import { AUTO_FIRST_SESSION, MAIN_SESSION, STORED_ROWS, storedMessages } from "../store/v2/testing/fixture-2.1.2.ts";
import { keptTailStart } from "./kept-tail.ts";

/** A completed compaction as store/v2/map.ts gives it: one summary message, its part naming the kept tail. */
function compaction(tailStartId: string | undefined): HistoryMessage {
  return assistant([{ kind: "compaction", id: nextId("prt"), auto: true, tailStartId }, "summary"], { summary: true, agent: "compaction" });
}

/** Text of about `tokens` estimated tokens (4 characters each). */
const sized = (tokens: number): string => "word ".repeat(tokens * 0.8);

describe("the tail OpenCode 2.1.2 keeps beside its summary", () => {
  it("names, before each compaction the real 2.1.2 ran, the keepID it then stored", () => {
    const compactions = STORED_ROWS.filter((row) => row.type === "compaction");
    expect(compactions).toHaveLength(4);
    for (const row of compactions) {
      const predicted = keptTailStart(storedMessages(row.session_id, row.seq));
      expect(predicted, `${row.session_id} seq ${row.seq}`).toBe(JSON.parse(row.data).metadata.keepID);
    }
    // One manual and one automatic before a prompt: the latest prompt; mid-turn, after a compaction
    // that kept a tail: the first message since; after a long first prompt: the second one.
    expect(compactions.map((row) => row.session_id)).toEqual([MAIN_SESSION, MAIN_SESSION, MAIN_SESSION, AUTO_FIRST_SESSION]);
  });

  it("a history that fits the budget keeps its last prompt on; a first prompt alone keeps nothing", () => {
    const messages = [user("one"), assistant(["a"]), user("two"), assistant(["b", toolCall("read", { path: "x" })])];
    expect(keptTailStart(messages)).toBe(messages[2]!.id);
    expect(keptTailStart([user(sized(20_000)), assistant(["done"])])).toBeUndefined();
    expect(keptTailStart([])).toBeUndefined();
  });

  it("over the budget: from the prompt of the turn where the budget runs out, however far back", () => {
    const messages = [user("one"), assistant([sized(4_000)]), user("two"), assistant([sized(8_000)]), assistant([sized(8_000)]), user("three")];
    expect(keptTailStart(messages)).toBe(messages[2]!.id);
    const turns = [user("one"), assistant([sized(9_000)]), user("two"), assistant([sized(9_000)]), user("three"), assistant(["c"])];
    expect(keptTailStart(turns)).toBe(turns[2]!.id);
    expect(keptTailStart(turns, 20_000)).toBe(turns[4]!.id);
  });

  it("counts only what came after the latest compaction, and its kept tail decides the fallback", () => {
    const kept = user("kept");
    const step = assistant([toolCall("read", { path: "x" })]);
    expect(keptTailStart([user("old"), kept, compaction(kept.id), step])).toBe(step.id);
    expect(keptTailStart([user("old"), compaction(undefined), step])).toBeUndefined();
    // A prompt after the compaction is the tail's start whatever came before it.
    const prompt = user("next");
    expect(keptTailStart([user("old"), compaction(undefined), assistant(["a"]), prompt, assistant(["b"])])).toBe(prompt.id);
  });

  it("a tool's output counts as the checkpoint cuts it (1,250 characters)", () => {
    // Whole, the 40,000 characters (10,000 tokens) would end the budget in turn two; cut, all fits.
    const messages = [
      user("one"),
      assistant([toolCall("read", { path: "x" }, "completed", "x".repeat(40_000))]),
      user("two"),
      assistant([sized(5_000)]),
      user("three"),
      assistant(["c"]),
    ];
    expect(keptTailStart(messages)).toBe(messages[4]!.id);
  });
});
