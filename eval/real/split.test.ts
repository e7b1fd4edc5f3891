import { describe, expect, it } from "vitest";
import { QUESTION_SETS } from "./question-sets.ts";
import { FAMILIES, familyOf, halfOf, HALVES, projectOf, SPLIT, SWEBENCH_DRAWN } from "./split.ts";

const dev2 = SPLIT.filter((s) => s.folder === "dev2");

describe("the eval's split by session", () => {
  it("follows issue 22's rule in dev/ and swebench/: within each family, in the listed order, tuning and check alternately, tuning first", () => {
    const older = SPLIT.filter((s) => s.folder !== "dev2");
    for (const family of ["claude-code", "swebench"] as const) {
      const halves = older.filter((s) => s.family === family).map((s) => s.half);
      expect(halves, family).toEqual(halves.map((_, i) => HALVES[i % 2]));
    }
  });

  it("follows issue 39's rule in dev2/: per family, by file name, tuning and check alternately, tuning first; a family of one to check", () => {
    expect(dev2.map((s) => s.name)).toEqual(dev2.map((s) => s.name).sort());
    for (const family of FAMILIES) {
      const halves = dev2.filter((s) => s.family === family).map((s) => s.half);
      const expected = halves.length === 1 ? ["check"] : halves.map((_, i) => HALVES[i % 2]);
      expect(halves, family).toEqual(expected);
    }
    // So dev2/'s check half spans every family of dev2/.
    const families = new Set(dev2.map((s) => s.family));
    expect(new Set(dev2.filter((s) => s.half === "check").map((s) => s.family))).toEqual(families);
  });

  it("lists each session once, dev's by file name before the drawn swebench ones before dev2's, one dev Claude Code session per half", () => {
    const names = SPLIT.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    const dev = SPLIT.filter((s) => s.folder === "dev").map((s) => s.name);
    expect(dev).toEqual([...dev].sort());
    expect(names.slice(0, dev.length)).toEqual(dev);
    expect(SPLIT.filter((s) => s.folder === "swebench")).toHaveLength(SWEBENCH_DRAWN);
    expect(names.slice(dev.length + SWEBENCH_DRAWN)).toEqual(dev2.map((s) => s.name));
    for (const half of HALVES)
      expect(
        SPLIT.filter((s) => s.folder === "dev" && s.family === "claude-code" && s.half === half),
        half,
      ).toHaveLength(1);
  });

  it("names each session's agent family by its file name's prefix", () => {
    const prefixes: Array<[string, string]> = [
      ["cc-", "claude-code"],
      ["aider-", "aider"],
      ["codex-", "codex"],
      ["cursor-", "cursor"],
      ["gem-", "gemini"],
      ["oc-", "opencode"],
    ];
    for (const s of SPLIT) expect(s.family, s.name).toBe(prefixes.find(([prefix]) => s.name.startsWith(prefix))?.[1] ?? "swebench");
  });

  it("groups sessions into projects: dev/ one, the drawn swebench/ ones one, dev2/ by siblings (name but its last part), a session without siblings alone", () => {
    for (const s of SPLIT.filter((s) => s.folder !== "dev2")) expect(s.project, s.name).toBe(s.folder);
    const stem = (name: string) => name.replace(/-[^-]*$/, "");
    for (const s of dev2) {
      const siblings = dev2.filter((other) => stem(other.name) === stem(s.name));
      expect(s.project, s.name).toBe(`dev2/${siblings.length > 1 ? stem(s.name) : s.name}`);
    }
    expect(new Set(dev2.map((s) => s.project)).size).toBe(8);
  });

  it("names a session's half, family and project, and refuses a session it does not list", () => {
    expect(halfOf("cc-spotter-ae4a77f8")).toBe("check");
    expect(halfOf("mini-django-15629")).toBe("tuning");
    expect(halfOf("codex-openprintkit-1101")).toBe("check");
    expect(familyOf("mini-django-15629")).toBe("swebench");
    expect(familyOf("cc-pai-351b5d6c")).toBe("claude-code");
    expect(projectOf("django__django-13158")).toBe("swebench");
    expect(projectOf("cursor-alpamayo-speed")).toBe("dev2/cursor-alpamayo");
    expect(() => halfOf("mini-none-1")).toThrow(/not in the eval's split/);
    expect(() => familyOf("mini-none-1")).toThrow(/not in the eval's split/);
  });

  it("holds issue 39's questions over dev2/ alone: each names a dev2 session of the split, and every dev2 session has some", () => {
    const names = new Set(dev2.map((s) => s.name));
    for (const question of QUESTION_SETS.issue39) expect(names.has(question.session), `${question.session}: ${question.query}`).toBe(true);
    for (const name of names)
      expect(
        QUESTION_SETS.issue39.some((q) => q.session === name),
        name,
      ).toBe(true);
  });
});
