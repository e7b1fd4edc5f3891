// The shipped opencode-engram.jsonc and docs/config.md must describe exactly the options the code reads.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseJsonc } from "./jsonc.ts";
import { CONFIG_SPEC, defaultConfig } from "./schema.ts";
import { resolveConfig } from "./validate.ts";

const root = new URL("../../", import.meta.url);

function keyPaths(tree: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    Array.isArray(value) ? [`${prefix}${key}`] : keyPaths(value as Record<string, unknown>, `${prefix}${key}.`),
  );
}

describe("documented config", () => {
  it("opencode-engram.jsonc sets every option to its default and nothing else", () => {
    const shipped = parseJsonc(readFileSync(new URL("opencode-engram.jsonc", root), "utf8"));
    expect(shipped).toEqual(defaultConfig());
    expect(resolveConfig([{ source: "shipped", value: shipped }]).problems).toEqual([]);
  });

  it("docs/config.md names every option", () => {
    const doc = readFileSync(new URL("docs/config.md", root), "utf8");
    for (const path of keyPaths(CONFIG_SPEC as unknown as Record<string, unknown>)) expect(doc, path).toContain(`\`${path}\``);
  });
});
