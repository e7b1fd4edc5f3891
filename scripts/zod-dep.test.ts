// The plugin imports zod's types (tools/run.ts) for the schemas it builds with @opencode-ai/plugin's
// `tool.schema`: the two must be one zod, so the declared version is the one the plugin package uses.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = new URL("..", import.meta.url).pathname;
const dependencies = (path: string) => (JSON.parse(readFileSync(join(root, path), "utf8")) as { dependencies: Record<string, string> }).dependencies;

describe("declared zod", () => {
  it("is the exact version @opencode-ai/plugin depends on", () => {
    expect(dependencies("package.json").zod).toBe(dependencies("node_modules/@opencode-ai/plugin/package.json").zod);
  });
});
