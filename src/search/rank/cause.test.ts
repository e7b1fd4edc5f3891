import { describe, expect, it } from "vitest";
import { textMessage } from "../../history/testing/messages.ts";
import type { HistoryMessage } from "../../history/types.ts";
import { MemorySource } from "../../host/testing/memory-source.ts";
import type { ScoredDoc } from "../scored.ts";
import { FILLER } from "../testing/filler.ts";
import { idsOnBothPaths } from "../testing/service.ts";
import { parseQuery } from "../text/query.ts";
import { TUNING } from "../tuning.ts";
import { causeBoost } from "./cause.ts";

const T0 = Date.UTC(2025, 0, 1);

/** A scored chunk holding all of `text`, of the given type. */
function chunk(type: ScoredDoc["type"], text: string): ScoredDoc {
  const message = textMessage("s1", "assistant", "", T0);
  return { message, partId: "p1", type, start: 0, end: text.length, score: 1 };
}

describe("why questions", () => {
  it("are queries holding 'why' beside content words, without a path or name", () => {
    expect(parseQuery("why did git refuse to add the new stylesheet").asksWhy).toBe(true);
    expect(parseQuery("Why was the histogram cut off").asksWhy).toBe(true);
    expect(parseQuery("git refuse stylesheet").asksWhy).toBeUndefined();
    // Answered where the name stands, explained or not.
    expect(parseQuery("why did test_collect_sub_with_symlinks fail").asksWhy).toBeUndefined();
    expect(parseQuery("why did lib/app.ex fail to compile").asksWhy).toBeUndefined();
  });
});

describe("cause boost", () => {
  const why = parseQuery("why did git refuse to add the stylesheet");
  const explained = "Git refused to add the stylesheet because priv/static/assets is listed in .gitignore.";

  it("raises a text or reasoning chunk explaining a cause by the share of content words around the explanation", () => {
    expect(causeBoost(why, chunk("reasoning", explained), explained)).toBe(TUNING.cause.boost);
    expect(causeBoost(why, chunk("text", explained), explained)).toBe(TUNING.cause.boost);
    const half = "The stylesheet was left out because the folder is ignored.";
    // stylesheet of git, refuse, add, stylesheet.
    expect(causeBoost(why, chunk("text", half), half)).toBeCloseTo(1 + (TUNING.cause.boost - 1) / 4);
    const problem = "The real problem is that git ignores the stylesheet's folder, so the add was refused.";
    expect(causeBoost(why, chunk("text", problem), problem)).toBe(TUNING.cause.boost);
  });

  it("leaves alone tool calls, chunks without an explanation or with one far from the query's words, and other questions", () => {
    expect(causeBoost(why, chunk("tool", explained), explained)).toBe(1);
    const restated = "Git refused to add the stylesheet. Let me look at the output again.";
    expect(causeBoost(why, chunk("text", restated), restated)).toBe(1);
    const far = `Git refused to add the stylesheet.${" Checking the layout.".repeat(Math.ceil((2 * TUNING.proximity.window) / 20))} It failed because of a timeout.`;
    expect(causeBoost(why, chunk("text", far), far)).toBe(1);
    expect(causeBoost(parseQuery("git refuse stylesheet"), chunk("text", explained), explained)).toBe(1);
    // An inference from what was seen, not a cause.
    const inference = "Git still refused to add the stylesheet. This means the add never ran.";
    expect(causeBoost(why, chunk("text", inference), inference)).toBe(1);
  });
});

describe("a why question", () => {
  it("finds the message explaining the cause before one restating the question, cold and warm", async () => {
    let minute = 0;
    const at = () => T0 + ++minute * 60_000;
    const messages: HistoryMessage[] = [
      ...FILLER.map((line) => textMessage("s1", "user", line, at())),
      textMessage("s1", "assistant", "Git refused to add the new stylesheet because the assets folder is build output, ignored by .gitignore.", at()),
      ...FILLER.map((line) => textMessage("s1", "assistant", line, at())),
      textMessage("s1", "assistant", "Git refused to add the new stylesheet. Let me look at the git output again.", at()),
    ];
    const source = new MemorySource();
    source.add({ id: "s1", title: "session", created: T0, updated: T0 }, messages);
    const { cold, warm } = await idsOnBothPaths(source, "s1", "why did git refuse to add the new stylesheet");
    const explaining = messages[FILLER.length]!.id;
    expect([cold[0], warm[0]]).toEqual([explaining, explaining]);
  });
});
