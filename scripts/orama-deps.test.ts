// The @orama packages the plugin declares are the ones its source imports: an unused one is only
// install weight (issue 9 point 9 removed @orama/tokenizers, which nothing used).
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = new URL("..", import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "testing" ? [] : sources(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

describe("declared @orama packages", () => {
  it("are each imported by the plugin's source", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    const code = sources(join(root, "src"))
      .map((file) => readFileSync(file, "utf8"))
      .join("\n");
    const unused = Object.keys(pkg.dependencies).filter((name) => name.startsWith("@orama/") && !code.includes(`from "${name}`));
    expect(unused).toEqual([]);
  });
});
