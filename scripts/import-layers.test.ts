import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { importGraph } from "./import-cycles.ts";
import { coreHostImports, deepSearchImports, searchLayerBreaks } from "./import-layers.ts";
import { tempProjects } from "./testing/temp-project.ts";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

describe("import layers", () => {
  const { project, remove } = tempProjects("engram-layers-");
  afterAll(remove);

  it("names each file outside src/search that imports past the entry, by a plain, type-only or dynamic import", () => {
    const root = project({
      "src/search/api.ts": 'export { run } from "./service.ts";\n',
      "src/search/service.ts": 'import { terms } from "./text/query.ts";\nexport const run = terms;\n',
      "src/search/text/query.ts": "export const terms = 1; export type Query = number;\n",
      "src/tools/ok.ts": 'import { run } from "../search/api.ts";\nexport const ok = run;\n',
      "src/tools/plain.ts": 'import { run } from "../search/service.ts";\nexport const plain = run;\n',
      "src/cli/typed.ts": 'import type { Query } from "../search/text/query.ts";\nexport type T = Query;\n',
      "src/engram.ts": 'export const load = () => import("./search/text/query.ts");\n',
    });
    expect(deepSearchImports(importGraph(root, ["src"]))).toEqual([
      "src/cli/typed.ts → src/search/text/query.ts",
      "src/engram.ts → src/search/text/query.ts",
      "src/tools/plain.ts → src/search/service.ts",
    ]);
  });

  it("the project's src, e2e and demo reach search through src/search/api.ts only (bench and scripts measure and test its insides)", () => {
    const graph = importGraph(repoRoot, ["src", "e2e", "demo"]);
    expect([...graph.keys()]).toContain("src/search/api.ts");
    expect(deepSearchImports(graph)).toEqual([]);
  });

  it("names each production import of search's folders upward or sideways in SEARCH_LAYERS", () => {
    const root = project({
      "src/search/text/query.ts": "export const terms = 1;\n",
      "src/search/rank/bm25.ts": 'import { terms } from "../text/query.ts";\nexport const score = terms;\n',
      "src/search/rank/boost.ts": 'import { scan } from "../scan/scan.ts";\nexport const boost = scan;\n',
      "src/search/scan/scan.ts":
        'import { score } from "../rank/bm25.ts";\nimport type { I } from "../index/index.ts";\nexport const scan = score; export type S = I;\n',
      "src/search/index/index.ts": "export type I = number;\n",
      "src/search/index/index.test.ts": 'import { scan } from "../scan/scan.ts";\nexport const t = scan;\n',
      "src/search/service.ts": 'import { scan } from "./scan/scan.ts";\nexport const run = scan;\n',
    });
    expect(searchLayerBreaks(importGraph(root, ["src"]))).toEqual([
      "src/search/rank/boost.ts → src/search/scan/scan.ts",
      "src/search/scan/scan.ts → src/search/index/index.ts",
    ]);
  });

  it("search's folders import one way: text below rank below scan and index", () => {
    expect(searchLayerBreaks(importGraph(repoRoot, ["src/search"]))).toEqual([]);
  });

  it("names each production file of history/ or search/ that imports a host module; tests and testing/ may", () => {
    const root = project({
      "src/history/source.ts": "export type Source = number;\n",
      "src/host/source.ts": "export type HostSource = number;\n",
      "src/host/testing/memory.ts": "export const memory = 1;\n",
      "src/history/view.ts": 'import type { Source } from "./source.ts";\nexport type V = Source;\n',
      "src/search/service.ts": 'import type { HostSource } from "../host/source.ts";\nexport type S = HostSource;\n',
      "src/history/paths.ts": 'export const load = () => import("../host/source.ts");\n',
      "src/search/service.test.ts": 'import { memory } from "../host/testing/memory.ts";\nexport const t = memory;\n',
      "src/search/testing/sessions.ts": 'import { memory } from "../../host/testing/memory.ts";\nexport const s = memory;\n',
      "src/tools/search.ts": 'import type { HostSource } from "../host/source.ts";\nexport type T = HostSource;\n',
    });
    expect(coreHostImports(importGraph(root, ["src"]))).toEqual(["src/history/paths.ts → src/host/source.ts", "src/search/service.ts → src/host/source.ts"]);
  });

  it("history/ and search/ import nothing of host/ (the host's contract, HistorySource, is history/source.ts)", () => {
    expect(coreHostImports(importGraph(repoRoot, ["src"]))).toEqual([]);
  });
});
