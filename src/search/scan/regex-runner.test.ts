import { afterAll, describe, expect, it } from "vitest";
import { assistant } from "../../history/testing/messages.ts";
import { toolVisibility } from "../../history/tool-visibility.ts";
import { patternScan, regexMatcher } from "./pattern.ts";
import { RegexRunner } from "./regex-runner.ts";
import { DEFAULT_TUNING } from "../tuning.ts";

const runner = new RegexRunner();
afterAll(() => runner.close());

describe("regex searches run off the host's thread", () => {
  it("finds matches with JavaScript syntax, case-insensitively", async () => {
    const spans = await runner.find("err(or)?\\s+\\d{3}", ["an ERROR 404 and err 500", "none"], 10, 5000);
    expect(spans).toEqual([
      [
        [3, 12],
        [17, 24],
      ],
      [],
    ]);
  });

  it("stops a catastrophic pattern the static check lets through, while the event loop keeps running", async () => {
    const messages = [assistant(["a".repeat(300)])];
    const matcher = regexMatcher("(.*a){12}x", runner, 300);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    try {
      await expect(patternScan(messages, toolVisibility([], []), matcher, DEFAULT_TUNING.chunkChars, () => true)).rejects.toThrow(
        /regex took longer than 300 ms .* and was stopped; simplify it/,
      );
    } finally {
      clearInterval(ticker);
    }
    expect(ticks).toBeGreaterThan(5);
    // A fresh worker serves the next search.
    expect(await runner.find("b+", ["abbbc"], 10, 5000)).toEqual([[[1, 4]]]);
  });
});
