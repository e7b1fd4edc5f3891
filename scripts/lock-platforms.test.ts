// npm ci refuses a lock that lacks any optional dependency; see lock-platforms.mjs for why it can.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const read = (path: string) => JSON.parse(readFileSync(new URL(`../${path}`, import.meta.url), "utf8"));

describe("package-lock.json", () => {
  it("lists every optional platform build, so npm ci accepts it on any machine", () => {
    const lock = read("package-lock.json");
    for (const owner of ["opencode-ai", "vite", "@biomejs/biome"]) {
      const optional = Object.keys(read(`node_modules/${owner}/package.json`).optionalDependencies ?? {});
      const missing = optional.filter((name) => !lock.packages[`node_modules/${name}`]);
      expect(missing, `missing from package-lock.json; run: node scripts/lock-platforms.mjs`).toEqual([]);
    }
  });
});
