import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { importGraph } from "./import-cycles.ts";
import { deepImports, layerBreaks, searchLayerBreaks } from "./import-layers.ts";
import { tempProjects } from "./testing/temp-project.ts";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

describe("import layers", () => {
  const { project, remove } = tempProjects("engram-layers-");
  afterAll(remove);

  it("names each production import sideways or up between folders, and each testing/ import above its folder", () => {
    const root = project({
      "src/index.ts": 'import { plugin } from "./opencode1/plugin.ts";\nexport default plugin;\n',
      "src/util/log.ts": "export const log = 1;\n",
      "src/history/view.ts": 'import { log } from "../util/log.ts";\nexport const view = log;\n',
      "src/store/reader.ts": 'import { view } from "../history/view.ts";\nexport const reader = view;\n',
      "src/search/api.ts": 'import type { reader } from "../store/reader.ts";\nexport const run = 1; export type R = typeof reader;\n',
      "src/projection/index.ts": 'import { run } from "../search/api.ts";\nexport const projection = run;\n',
      "src/store/cache.ts": 'export const load = () => import("../projection/index.ts");\n',
      "src/tools/run.ts": 'import { projection } from "../projection/index.ts";\nexport const tools = projection;\n',
      "src/hooks/chart.ts": 'import { tools } from "../tools/run.ts";\nexport const chart = tools;\n',
      "src/opencode1/plugin.ts": 'import { tools } from "../tools/run.ts";\nexport const plugin = tools;\n',
      "src/opencode2/setup.ts": 'import { plugin } from "../opencode1/plugin.ts";\nexport const setup = plugin;\n',
      "src/cli/main.ts": 'import entry from "../index.ts";\nexport const main = entry;\n',
      "src/store/testing/fake.ts":
        'import { reader } from "../reader.ts";\nimport { view } from "../../history/view.ts";\nexport const fake = [reader, view];\n',
      "src/search/testing/sessions.ts": 'import { tools } from "../../tools/run.ts";\nexport const s = tools;\n',
      "src/history/view.test.ts": 'import { plugin } from "../opencode1/plugin.ts";\nexport const t = plugin;\n',
      "e2e/harness/paths.ts": "export const root = 1;\n",
      "src/store/testing/bin.ts": 'import { root } from "../../../e2e/harness/paths.ts";\nexport const bin = root;\n',
    });
    expect(layerBreaks(importGraph(root, ["src", "e2e"]))).toEqual([
      "src/cli/main.ts → src/index.ts",
      "src/hooks/chart.ts → src/tools/run.ts",
      "src/opencode2/setup.ts → src/opencode1/plugin.ts",
      "src/search/api.ts → src/store/reader.ts",
      "src/search/testing/sessions.ts → src/tools/run.ts",
      "src/store/cache.ts → src/projection/index.ts",
      "src/store/testing/bin.ts → e2e/harness/paths.ts",
    ]);
  });

  it("src/'s folders import only down, and their test helpers nothing above their folder", () => {
    expect(layerBreaks(importGraph(repoRoot, ["src", "e2e"]))).toEqual([]);
  });

  it("names each file outside an entry's folder that imports past the entry, by a plain, type-only or dynamic import", () => {
    const root = project({
      "src/search/api.ts": 'export { run } from "./service.ts";\n',
      "src/search/service.ts": 'import { terms } from "./text/query.ts";\nexport const run = terms;\n',
      "src/search/text/query.ts": "export const terms = 1; export type Query = number;\n",
      "src/projection/index.ts": 'export { feed } from "./feed.ts";\n',
      "src/search/projection-contract.ts": 'export { terms } from "./text/query.ts";\n',
      "src/projection/feed.ts": 'import { terms } from "../search/projection-contract.ts";\nexport const feed = terms;\n',
      "src/projection/tools-face.ts": 'import { run } from "../search/api.ts";\nexport const face = run;\n',
      "src/tools/contract.ts": 'import { terms } from "../search/projection-contract.ts";\nexport const c = terms;\n',
      "src/tools/ok.ts": 'import { run } from "../search/api.ts";\nimport { feed } from "../projection/index.ts";\nexport const ok = [run, feed];\n',
      "src/tools/plain.ts": 'import { run } from "../search/service.ts";\nexport const plain = run;\n',
      "src/cli/typed.ts": 'import type { Query } from "../search/text/query.ts";\nexport type T = Query;\n',
      "src/cli/deep.ts": 'export const load = () => import("../projection/feed.ts");\n',
    });
    expect(deepImports(importGraph(root, ["src"]))).toEqual([
      "src/cli/deep.ts → src/projection/feed.ts",
      "src/cli/typed.ts → src/search/text/query.ts",
      "src/projection/tools-face.ts → src/search/api.ts",
      "src/tools/contract.ts → src/search/projection-contract.ts",
      "src/tools/plain.ts → src/search/service.ts",
    ]);
  });

  it("the project's src, e2e and demo reach search and the projection through their entries only (bench, eval and scripts measure their insides)", () => {
    const graph = importGraph(repoRoot, ["src", "e2e", "demo"]);
    expect([...graph.keys()]).toContain("src/search/api.ts");
    expect([...graph.keys()]).toContain("src/projection/index.ts");
    expect(deepImports(graph)).toEqual([]);
  });

  it("names each production import of search's folders and stages upward or sideways in SEARCH_LAYERS", () => {
    const root = project({
      "src/search/text/query.ts": "export const terms = 1;\n",
      "src/search/rank/bm25.ts": 'import { terms } from "../text/query.ts";\nexport const score = terms;\n',
      "src/search/rank/boost.ts": 'import { scan } from "../scan/scan.ts";\nexport const boost = scan;\n',
      "src/search/scan/scan.ts":
        'import { score } from "../rank/bm25.ts";\nimport type { I } from "../index/index.ts";\nexport const scan = score; export type S = I;\n',
      "src/search/index/index.ts": "export type I = number;\n",
      "src/search/index/index.test.ts": 'import { scan } from "../scan/scan.ts";\nexport const t = scan;\n',
      "src/search/collect/cut.ts": 'import { scan } from "../scan/scan.ts";\nexport const cut = scan;\n',
      "src/search/index/uses-collect.ts": 'import { cut } from "../collect/cut.ts";\nexport const u = cut;\n',
      "src/search/service.ts": 'import { cut } from "./collect/cut.ts";\nexport const run = cut;\n',
      "src/search/merge.ts": 'import { cut } from "./collect/cut.ts";\nexport const merged = cut;\n',
      "src/search/parse.ts": 'import { merged } from "./merge.ts";\nexport const parsed = merged;\n',
    });
    expect(searchLayerBreaks(importGraph(root, ["src"]))).toEqual([
      "src/search/index/uses-collect.ts → src/search/collect/cut.ts",
      "src/search/parse.ts → src/search/merge.ts",
      "src/search/rank/boost.ts → src/search/scan/scan.ts",
      "src/search/scan/scan.ts → src/search/index/index.ts",
    ]);
  });

  it("search imports one way: its libraries, then its stages in order, then the verbs and the entry", () => {
    expect(searchLayerBreaks(importGraph(repoRoot, ["src/search"]))).toEqual([]);
  });
});
