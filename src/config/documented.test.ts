// The shipped opencode-engram.jsonc and docs/config.md must describe exactly the options the code reads.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseJsonc } from "./jsonc.ts";
import { configOptions, defaultConfig } from "./schema.ts";
import { resolveConfig } from "./validate.ts";

const root = new URL("../../", import.meta.url);

const UNITS: Record<string, number> = { KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 };

/** "16 GiB" → 17179869184; "2000" → 2000. */
function docNumber(text: string): number {
  const [count, unit] = text.trim().split(" ");
  return Number(count) * (unit ? UNITS[unit]! : 1);
}

describe("documented config", () => {
  it("opencode-engram.jsonc sets every option to its default and nothing else", () => {
    const shipped = parseJsonc(readFileSync(new URL("opencode-engram.jsonc", root), "utf8"));
    expect(shipped).toEqual(defaultConfig());
    expect(resolveConfig([{ source: "shipped", value: shipped }]).problems).toEqual([]);
  });

  it("docs/config.md gives every option a row with its default and range", () => {
    const rows = new Map(
      readFileSync(new URL("docs/config.md", root), "utf8")
        .split("\n")
        .filter((line) => line.startsWith("| `"))
        .map((line) => line.split("|").map((cell) => cell.trim()))
        .map((cells) => [cells[1]!.slice(1, -1), cells.slice(2)] as const),
    );
    for (const [path, option] of configOptions()) {
      const cells = rows.get(path);
      expect(cells, path).toBeDefined();
      const [shownDefault, shownRange] = cells!;
      if (option.kind === "int") {
        expect(shownDefault!.split(" ")[0], path).toBe(String(option.default));
        expect(shownRange!.split("–").map(docNumber), path).toEqual([option.min, option.max]);
      } else if (option.kind === "bool") {
        expect(shownDefault, path).toBe(String(option.default));
      } else {
        expect(shownDefault, path).toBe(`\`${JSON.stringify(option.default)}\``);
      }
    }
  });
});
