// What the projection must not change: many-session answers of a service (global and project
// search, history_sessions) for a fixed list of queries (rare words, typos, a decimal quoted
// short, function words, a word found nowhere), as plain data to compare.

import { defaultConfig, type EngramConfig } from "../../config/schema.ts";
import { type ToolVisibility, toolVisibility } from "../../history/tool-visibility.ts";
import type { SearchRequest, SearchService } from "../../search/api.ts";
import { isStoreProblem, openStore, type Store } from "../../store/store-file.ts";
import { seededRandom } from "../../util/testing/seeded-random.ts";
import type { V2StoreBuilder } from "../../store/v2/testing/v2-store.ts";

export const COMMON = ["build", "tests", "error", "file", "the", "run", "config", "module", "fails", "works"];
export const RARE = ["limiter", "bucket", "sandbox", "payment", "tracing", "stylesheet", "computeLineItemTotals", "0.33744", "retries", "websocket", "débito"];
/**
 * Writes `count` sessions of 1 to 5 messages of words drawn from COMMON and RARE (seeded) into an
 * OpenCode 2 stand-in store; `place` names each one's id, project and directory.
 */
export function seedWordSessions(
  builder: V2StoreBuilder,
  count: number,
  seed: number,
  place: (s: number) => { id: string; projectId: string; directory: string },
): void {
  const random = seededRandom(seed);
  const words = (n: number) =>
    Array.from({ length: n }, () => (random() < 0.12 ? RARE[Math.floor(random() * RARE.length)] : COMMON[Math.floor(random() * COMMON.length)])).join(" ");
  for (let s = 0; s < count; s++) {
    const { id, projectId, directory } = place(s);
    builder.session({ id, projectId, directory, title: `session ${s}` });
    for (let m = 0; m < 1 + (s % 5); m++)
      builder.message(id, m % 2 === 0 ? "user" : "assistant", m % 2 === 0 ? { text: words(12) } : { content: [{ type: "text", text: words(30) }] });
  }
}

/** Common words: nearly every session holds one, so the score-bound cut decides what is read. */
export const COMMON_QUERIES = ["build tests error", "config module fails works", "the run file"];
const QUERIES = [
  "limiter",
  "token bucket limiter",
  "limitr",
  "stylesheat tracing",
  "payment sandbox error",
  "0.337",
  "line item totals",
  "why does the build fail",
  "websockt retries",
  "debito",
  "zzzz nothing here",
  ...COMMON_QUERIES,
];

const EVERY_TYPE = ["text", "tool", "reasoning"] as const;
const SEARCHES = [
  ["global", 8, EVERY_TYPE],
  ["project", 8, EVERY_TYPE],
  ["global", 1, EVERY_TYPE],
  ["global", 2, EVERY_TYPE],
  ["global", 3, ["text", "tool"]],
] as const;

/** Every query's answers in global and project scope and from history_sessions, as the caller sees them. */
export async function searchAnswers(service: SearchService, caller: string) {
  const out: unknown[] = [];
  for (const query of QUERIES) {
    // The usual limit, small ones where the score-bound cut stops earliest, and history_search's default types.
    for (const [scope, limit, types] of SEARCHES) {
      const request: SearchRequest = { query, callerSessionId: caller, scope, types: [...types], limit };
      const answer = await service.search(request);
      out.push({
        query,
        scope,
        limit,
        types,
        unsearched: answer.unsearched,
        corrections: [...(answer.corrections ?? [])],
        results: answer.results.map((r) => [r.sessionId, r.message.id, r.score, r.turnNumber, r.hits.map((hit) => hit.snippets)]),
      });
    }
    // The usual limit, and small ones where the cut on sessions stops earliest.
    for (const limit of [5, 2, 1]) {
      const sessions = await service.sessions({ query, limit, includeChildren: true, global: true, callerSessionId: caller });
      out.push({ query, limit, sessions: sessions.sessions.map((s) => [s.session.id, s.snippet]), unsearched: sessions.unsearched });
    }
  }
  return out;
}

/**
 * The scenarios' store opened from `dataDir`, with the config their many-session searches use: one
 * session read at a time, a budget no search reaches, the projection asked from two sessions on.
 */
export async function scenarioStore(dataDir: string): Promise<{ store: Store; config: EngramConfig; visibility: ToolVisibility }> {
  const opened = await openStore(dataDir);
  if (isStoreProblem(opened)) throw new Error(opened.message);
  const config = defaultConfig();
  config.search.project_concurrency = 1;
  config.search.project_time_budget_ms = 60_000;
  config.projection.min_sessions = 2;
  return { store: opened, config, visibility: toolVisibility(config.show_tool_input, config.show_tool_output) };
}
