import { describe, expect, it } from "vitest";
import { halfOf, HALVES, SPLIT, SWEBENCH_DRAWN } from "./split.ts";

describe("the eval's split by session", () => {
  it("follows its rule: within each group, in the listed order, tuning and check alternately, tuning first", () => {
    for (const group of ["claude-code", "swebench-run"] as const) {
      const halves = SPLIT.filter((s) => s.group === group).map((s) => s.half);
      expect(halves, group).toEqual(halves.map((_, i) => HALVES[i % 2]));
    }
  });

  it("lists each session once, dev's by file name before the drawn swebench ones, one Claude Code session per half", () => {
    const names = SPLIT.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    const dev = SPLIT.filter((s) => s.folder === "dev").map((s) => s.name);
    expect(dev).toEqual([...dev].sort());
    expect(names.slice(0, dev.length)).toEqual(dev);
    expect(SPLIT.filter((s) => s.folder === "swebench")).toHaveLength(SWEBENCH_DRAWN);
    for (const half of HALVES)
      expect(
        SPLIT.filter((s) => s.group === "claude-code" && s.half === half),
        half,
      ).toHaveLength(1);
    expect(SPLIT.every((s) => s.group === (s.name.startsWith("cc-") ? "claude-code" : "swebench-run"))).toBe(true);
  });

  it("names a session's half, and refuses a session it does not list", () => {
    expect(halfOf("cc-spotter-ae4a77f8")).toBe("check");
    expect(halfOf("mini-django-15629")).toBe("tuning");
    expect(() => halfOf("mini-none-1")).toThrow(/not in the eval's split/);
  });
});
