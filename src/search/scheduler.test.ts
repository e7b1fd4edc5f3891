import { describe, expect, it } from "vitest";
import { asSearch, yieldToLoop } from "./scheduler.ts";

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe("slice scheduler", () => {
  it("holds background builds while a search runs, and resumes them after", async () => {
    let resumed = false;
    let resumedDuringSearch = true;
    await asSearch(async () => {
      void yieldToLoop("build").then(() => (resumed = true));
      await yieldToLoop("search");
      await turns(5);
      resumedDuringSearch = resumed;
    });
    expect(resumedDuringSearch).toBe(false);
    await turns(5);
    expect(resumed).toBe(true);
  });

  it("runs a background task a search waits on (urgent) even while searches run", async () => {
    let resumed = false;
    await asSearch(async () => {
      void yieldToLoop("build", () => true).then(() => (resumed = true));
      await turns(5);
      expect(resumed).toBe(true);
    });
  });
});
