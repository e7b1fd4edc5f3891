import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { findCycles, importGraph } from "./import-cycles.ts";
import { tempProjects } from "./testing/temp-project.ts";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

describe("import cycles", () => {
  const { project, remove } = tempProjects("engram-cycles-");
  afterAll(remove);

  it("finds a cycle through a type-only import, a dynamic import and a folder", () => {
    const root = project({
      "src/a.ts": 'import { b } from "./b.ts";\nexport const a = b;\n',
      "src/b.ts": 'import type { C } from "./deep/c.ts";\nexport const b = 1; export type B = C;\n',
      "src/deep/c.ts": 'export type C = number;\nexport const load = () => import("../a.ts");\n',
      "src/d.ts": 'import { a } from "./a.ts";\nimport { readFileSync } from "node:fs";\nexport const d = [a, readFileSync];\n',
      "src/self.ts": 'export * from "./self.ts";\n',
    });
    expect(findCycles(importGraph(root, ["src"]))).toEqual([
      ["src/a.ts", "src/b.ts", "src/deep/c.ts", "src/a.ts"],
      ["src/self.ts", "src/self.ts"],
    ]);
  });

  it("finds none in an acyclic graph", () => {
    const root = project({
      "src/a.ts": 'import { b } from "./b.ts";\nimport { c } from "./c.ts";\nexport const a = b + c;\n',
      "src/b.ts": 'import { c } from "./c.ts";\nexport const b = c;\n',
      "src/c.ts": "export const c = 1;\n",
    });
    expect(findCycles(importGraph(root, ["src"]))).toEqual([]);
  });

  it("the project has none", () => {
    const graph = importGraph(repoRoot, ["src", "e2e", "bench", "demo", "scripts"]);
    expect(graph.size).toBeGreaterThan(100);
    expect(findCycles(graph)).toEqual([]);
  });
});
