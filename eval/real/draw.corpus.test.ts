import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { drawSwebenchSessions, SOURCES_FILE } from "./draw.ts";
import { SPLIT, SWEBENCH_DRAWN } from "./split.ts";

describe("the draw of swebench sessions", () => {
  it("gives the split's swebench sessions, in the split's order", () => {
    expect(drawSwebenchSessions(SWEBENCH_DRAWN)).toEqual(SPLIT.filter((s) => s.folder === "swebench").map((s) => s.name));
  });

  it("draws no run that another corpus folder holds (dev's runs, the holdouts' runs)", () => {
    const sources = JSON.parse(readFileSync(SOURCES_FILE, "utf8")) as Record<string, Array<{ path?: string }>>;
    const elsewhere = Object.entries(sources)
      .filter(([folder]) => folder !== "swebench")
      .flatMap(([, entries]) => entries.map((e) => e.path ?? ""));
    // swebench/ does hold such runs, so the draw has something to leave out.
    expect(sources.swebench!.filter((e) => elsewhere.includes(e.path ?? "")).length).toBeGreaterThan(0);
    for (const name of drawSwebenchSessions(40))
      expect(
        elsewhere.filter((path) => path.includes(`/${name}.`)),
        name,
      ).toEqual([]);
  });
});
