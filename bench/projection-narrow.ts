// What the projection answers a many-session search costs, outside a running host: builds the
// projection of the newest `sessions` of a store (as projection-build.ts, untimed), then times
// narrow() for a few queries (holders, their chunk postings), reading and decoding every holder's
// chunk table, nearest() for two misspelt words, and 50 summaries. In the host's Bun:
//   BUN_BE_BUN=1 node_modules/opencode-linux-x64/bin/opencode bench/projection-narrow.ts <XDG_DATA_HOME> [sessions]

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultConfig } from "../src/config/schema.ts";
import { toolVisibility } from "../src/history/tool-visibility.ts";
import { type ProjectionFeed, storeFeed } from "../src/projection/feed.ts";
import { ProjectionBuilder } from "../src/projection/builder.ts";
import { isStoreProblem, openStore } from "../src/store/store-file.ts";
import { dataDir } from "../src/store/sqlite.ts";
import { parseQuery } from "../src/search/text/query.ts";
import { DEFAULT_TUNING } from "../src/search/tuning.ts";

const [xdgData, limit = "1500"] = process.argv.slice(2);
if (!xdgData) throw new Error("usage: projection-narrow.ts <XDG_DATA_HOME> [sessions]");
const store = await openStore(dataDir({ XDG_DATA_HOME: xdgData }));
if (isStoreProblem(store)) throw new Error(store.message);
const cache = mkdtempSync(join(tmpdir(), "engram-narrow-"));
const inner = storeFeed(store);
const feed: ProjectionFeed = {
  ...inner,
  sessions: async (p) => (await inner.sessions(p)).sort((a, b) => (b.updated ?? 0) - (a.updated ?? 0)).slice(0, Number(limit)),
};
const config = defaultConfig();
const visibility = toolVisibility(config.show_tool_input, config.show_tool_output);
const projection = new ProjectionBuilder({
  feed,
  enabled: () => true,
  visibility: () => visibility,
  visibilityKey: () => "k",
  tuning: DEFAULT_TUNING,
  pause: () => undefined,
  log: () => {},
  dir: cache,
});
await projection.untilCurrent("bench");
const scope = await feed.sessions("bench");
for (const query of ["timezone aware datetime", "matrix nested operations units", "the error in the build", "quokka"]) {
  const terms = parseQuery(query, DEFAULT_TUNING).terms;
  let t = performance.now();
  const narrowed = (await projection.narrow(scope, terms, new Set()))!;
  const narrowMs = performance.now() - t;
  let pairs = 0;
  for (const holder of narrowed.projected.values()) for (const chunks of holder.termChunks()) pairs += chunks.length / 2;
  t = performance.now();
  let chunks = 0;
  for (const holder of narrowed.projected.values()) chunks += holder.table().chunks.length / 5;
  const tablesMs = performance.now() - t;
  console.log(
    `${query}: ${terms.length} terms, narrow ${narrowMs.toFixed(0)} ms, ${narrowed.projected.size} holders, ${pairs} chunk postings, search ${narrowed.search.length}, rest ${narrowed.rest.ids.length}; all ${narrowed.projected.size} tables ${tablesMs.toFixed(0)} ms (${chunks} chunks)`,
  );
}
let t = performance.now();
const near = await projection.nearest(
  ["datetme", "oprations"],
  scope.map((s) => s.id),
);
console.log(`nearest ${(performance.now() - t).toFixed(0)} ms`, JSON.stringify([...near]));
t = performance.now();
for (const s of scope.slice(0, 50)) projection.summary(s.id, s.updated);
console.log(`50 summaries ${(performance.now() - t).toFixed(1)} ms`);
projection.close();
rmSync(cache, { recursive: true, force: true });
