// Sessions read and time taken by a common-word global search over a generated store of many
// sessions, through the store's projection (the score-bound cut) and reading every session:
//   node --import ./bench/ts-loader.mjs bench/score-cut.ts [sessions]
import { defaultConfig } from "../src/config/schema.ts";
import { textMessage, toolPart } from "../src/history/testing/messages.ts";
import { toolVisibility } from "../src/history/tool-visibility.ts";
import type { HistoryMessage } from "../src/history/types.ts";
import { StoreProjection } from "../src/host/projection/projection.ts";
import { MemorySource } from "../src/host/testing/memory-source.ts";
import { memoryOpener } from "../src/host/testing/memory-projection-db.ts";
import { createSearchService } from "../src/search/api.ts";
import { seededRandom } from "../src/util/testing/seeded-random.ts";

const sessions = Number(process.argv[2] ?? 1000);
const WORDS = [
  "timezone",
  "aware",
  "datetime",
  "migration",
  "squash",
  "operations",
  "build",
  "tests",
  "error",
  "file",
  "the",
  "run",
  "config",
  "module",
  "fails",
  "works",
  "value",
  "returns",
  "handler",
  "request",
];
const random = seededRandom(7);
const sentence = (n: number) => `${Array.from({ length: n }, () => WORDS[Math.floor(random() ** 1.5 * WORDS.length)]!).join(" ")}.`;
class StoreSource extends MemorySource {
  listEverySession() {
    return this.listSessions();
  }
}
const source = new StoreSource();
const stamps = new Map<string, string>();
for (let s = 0; s < sessions; s++) {
  const id = `ses_${s}`;
  const start = Date.UTC(2025, 0, 1) + s * 1_000_000;
  const messages: HistoryMessage[] = [];
  for (let m = 0; m < 20; m++) {
    const extra = random() < 0.3 ? [toolPart("bash", { command: sentence(4) }, sentence(200))] : [];
    messages.push(textMessage(id, m % 2 === 0 ? "user" : "assistant", sentence(10 + Math.floor(random() * 60)), start + m * 1000, extra));
  }
  source.add({ id, title: `session ${s}`, created: start, updated: start + 20_000, directory: `/p${s % 30}` }, messages);
  stamps.set(id, "1");
}
const config = defaultConfig();
config.search.project_time_budget_ms = 60_000;
const visibility = toolVisibility(config.show_tool_input, config.show_tool_output);
const projection = new StoreProjection({
  feed: {
    storePath: async () => "memory-store",
    sessions: () => source.listSessions(),
    stamp: async (id) => stamps.get(id),
    messages: (id) => source.loadMessages(id),
  },
  enabled: () => true,
  visibility: () => visibility,
  visibilityKey: () => "default",
  pause: () => undefined,
  log: () => {},
  open: memoryOpener(),
  intervalMs: 3_600_000,
});
const base = { source, config: () => config, visibility: () => visibility };
const plain = createSearchService(base);
const projected = createSearchService({ ...base, finder: projection });
projection.observe("ses_elsewhere");
await projection.untilCurrent();
for (const query of ["timezone aware datetime", "migration squash operations"]) {
  for (const [name, service] of [
    ["every session", plain],
    ["projection + cut", projected],
  ] as const) {
    for (const round of ["cold", "warm"]) {
      const loads = source.loads;
      const t = performance.now();
      const answer = await service.search({ query, callerSessionId: "ses_elsewhere", scope: "global", types: ["text", "tool", "reasoning"], limit: 10 });
      const ms = performance.now() - t;
      console.log(
        `${query} | ${name} | ${round}: ${source.loads - loads} of ${sessions} sessions read, ${ms.toFixed(0)} ms, unsearched ${answer.unsearched}, top ${answer.results[0]?.sessionId} ${answer.results[0]?.score.toFixed(4)}`,
      );
    }
  }
}
projection.close();
