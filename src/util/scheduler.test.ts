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

  it("lets an urgent background task take turns with a search that keeps yielding", async () => {
    let buildTurns = 0;
    let searchTurns = 0;
    await asSearch(async () => {
      const build = (async () => {
        for (let i = 0; i < 3; i++) {
          await yieldToLoop("build", () => true);
          buildTurns++;
        }
      })();
      // A scan that always has another slice queued before the build's next turn.
      while (buildTurns < 3 && searchTurns < 20) {
        await yieldToLoop("search");
        searchTurns++;
      }
      await build;
    });
    expect(buildTurns).toBe(3);
    expect(searchTurns).toBeLessThan(20);
  });
});
