import { describe, expect, it, vi } from "vitest";
import { textMessage } from "../history/testing/messages.ts";
import { toolVisibility } from "../history/tool-visibility.ts";
import { buildView } from "../history/view.ts";
import * as scheduler from "../util/scheduler.ts";
import { collectSession, type Query } from "./session-search.ts";
import { parseQuery } from "./text/query.ts";

// Counts the turns collectSession asks for (the scan's own slices call the real one inside scheduler.ts).
vi.mock("../util/scheduler.ts", async (original) => {
  const real = await original<typeof import("../util/scheduler.ts")>();
  return { ...real, yieldToLoop: vi.fn(real.yieldToLoop) };
});

describe("collectSession", () => {
  it("starts a cold scan and its ranking each on a turn of its own when asked (one session), else only when a slice is spent", async () => {
    const messages = ["The invoice helpers were renamed.", "Totals are rounded last."].map((text, i) =>
      textMessage("s1", i === 0 ? "user" : "assistant", text, i * 1000),
    );
    const view = buildView("s1", messages, false);
    const query: Query = { kind: "keyword", text: "invoice helpers", parsed: parseQuery("invoice helpers") };
    const filters = { types: new Set<"text" | "tool">(["text", "tool"]) };
    const yieldToLoop = vi.mocked(scheduler.yieldToLoop);
    const turnsAsked = async (turnPerPhase: boolean): Promise<number> => {
      await scheduler.yieldToLoop(); // a fresh slice: this small scan never spends one
      yieldToLoop.mockClear();
      const collected = await collectSession(view, query, filters, { visibility: toolVisibility([], []), turnPerPhase });
      expect(collected.docs.length).toBe(1);
      return yieldToLoop.mock.calls.length;
    };
    expect(await turnsAsked(false)).toBe(0);
    expect(await turnsAsked(true)).toBe(2);
  });
});
