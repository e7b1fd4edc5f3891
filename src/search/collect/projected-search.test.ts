// Many-session searches ranked from the projection's counts (a MemoryFinder: sessionTerms in
// memory, as the projection keeps them) answer what reading every session answers: the same
// sessions, messages, scores, turn numbers, hits and snippets, in global and project scope and
// in history_sessions, with the caller's own session read live and a session changed since its
// counting read live too; and the projected sessions are never read whole.
import { describe, expect, it } from "vitest";
import { defaultConfig, type EngramConfig } from "../../config/schema.ts";
import { reasoningPart, textMessage, toolPart } from "../../history/testing/messages.ts";
import { toolVisibility } from "../../history/tool-visibility.ts";
import type { HistoryMessage } from "../../history/types.ts";
import { MemorySource } from "../../store/testing/memory-source.ts";
import { seededRandom } from "../../util/testing/seeded-random.ts";
import { createInspectableSearchService } from "../service.ts";
import { MemoryFinder } from "../testing/memory-finder.ts";
import type { SearchRequest, SearchService } from "../types.ts";

const COMMON = ["build", "tests", "error", "file", "the", "run", "config", "module", "fails", "works", "why", "did"];
const RARE = ["limiter", "bucket", "sandbox", "payment", "tracing", "stylesheet", "computeLineItemTotals", "retries", "websocket", "débito"];
const QUERIES = [
  "limiter",
  "limitr",
  "websockt retries",
  "stylesheat tracing",
  "token bucket limiter",
  "payment sandbox error",
  "why did the build fail",
  "line item totals",
  "build tests error",
  "the run file",
  "débito",
];

/** A store whose every session is in the scope of a global search. */
class StoreSource extends MemorySource {
  /** Sessions read whole, by id. */
  readonly readWhole = new Set<string>();
  /** Messages read one at a time, by id. */
  readonly readOne = new Set<string>();
  listEverySession() {
    return this.listSessions();
  }
  override loadMessages(sessionId: string) {
    this.readWhole.add(sessionId);
    return super.loadMessages(sessionId);
  }
  override loadMessage(sessionId: string, messageId: string) {
    this.readOne.add(messageId);
    return super.loadMessage(sessionId, messageId);
  }
}

function generatedStore(seed: number): StoreSource {
  const random = seededRandom(seed);
  const words = (n: number) => Array.from({ length: n }, () => (random() < 0.15 ? RARE : COMMON)[Math.floor(random() * 10)]).join(" ");
  const source = new StoreSource();
  for (let s = 0; s < 12; s++) {
    const id = `ses_${seed}_${String(s).padStart(2, "0")}`;
    const start = Date.UTC(2025, 0, 1) + s * 1_000_000;
    const messages: HistoryMessage[] = [];
    for (let m = 0; m < 2 + Math.floor(random() * 8); m++) {
      const text = random() < 0.1 ? Array.from({ length: 150 }, () => words(8)).join("\n") : words(3 + Math.floor(random() * 30));
      const extra = random() < 0.3 ? [toolPart("bash", { command: words(4) }, words(15))] : random() < 0.2 ? [reasoningPart(words(10))] : [];
      const message = textMessage(id, m % 2 === 0 ? "user" : "assistant", text, start + m * 1000, extra);
      if (message.role === "assistant" && random() < 0.1) message.summary = true;
      messages.push(message);
    }
    source.add(
      { id, title: random() < 0.3 ? `about ${RARE[s % RARE.length]}` : `session ${s}`, created: start, updated: start + 99_000, directory: "/p" },
      messages,
    );
  }
  return source;
}

function service(source: StoreSource, finder?: MemoryFinder): SearchService {
  const config: EngramConfig = defaultConfig();
  config.search.project_time_budget_ms = 60_000;
  config.projection.min_sessions = 2;
  const visibility = toolVisibility(config.show_tool_input, config.show_tool_output);
  return createInspectableSearchService({ source, config: () => config, visibility: () => visibility, ...(finder ? { finder } : {}) });
}

async function answers(search: SearchService, caller: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const query of QUERIES) {
    for (const [scope, limit, types] of [
      ["global", 8, ["text", "tool", "reasoning"]],
      ["project", 1, ["text", "tool", "reasoning"]],
      ["global", 3, ["text"]],
    ] as const) {
      const request: SearchRequest = { query, callerSessionId: caller, scope, limit, types: [...types] };
      const answer = await search.search(request);
      out.push({
        query,
        scope,
        limit,
        more: answer.more,
        corrections: [...(answer.corrections ?? [])],
        results: answer.results.map((r) => [r.sessionId, r.message.id, r.score.toFixed(9), r.turnNumber, r.remainHits, r.hits]),
      });
    }
    const sessions = await search.sessions({ query, limit: 4, includeChildren: true, global: true, callerSessionId: caller });
    out.push({ query, sessions: sessions.sessions.map((s) => [s.session.id, s.snippet, s.turns, s.preview]) });
  }
  return out;
}

/** Searches with alternatives (the other queries, in turn): the fused answers, with the phrasings that ranked each result. */
async function fusedAnswers(search: SearchService, caller: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const [i, query] of QUERIES.entries()) {
    const alternatives = [QUERIES[(i + 3) % QUERIES.length]!, QUERIES[(i + 5) % QUERIES.length]!, "xylophone"];
    for (const [scope, limit] of [
      ["global", 8],
      ["project", 3],
    ] as const) {
      const answer = await search.search({ query, alternatives, callerSessionId: caller, scope, limit, offset: 1, types: ["text", "tool", "reasoning"] });
      out.push({
        query,
        scope,
        more: answer.more,
        unmatched: answer.unmatched,
        corrections: [...(answer.corrections ?? [])],
        results: answer.results.map((r) => [r.sessionId, r.message.id, r.by, r.turnNumber, r.hits]),
      });
    }
    const sessions = await search.sessions({ query, alternatives, limit: 4, includeChildren: true, global: true, callerSessionId: caller });
    out.push({ query, unmatched: sessions.unmatched, sessions: sessions.sessions.map((s) => [s.session.id, s.by, s.snippet]) });
  }
  return out;
}

describe("many-session search ranked from the projection", () => {
  it("with alternatives: each phrasing picked from one narrowing answers as reading every session", async () => {
    const source = generatedStore(4);
    const finder = await MemoryFinder.over(source, toolVisibility(defaultConfig().show_tool_input, defaultConfig().show_tool_output));
    const caller = "ses_4_03";
    const plain = await fusedAnswers(service(source), caller);
    source.readWhole.clear();
    expect(await fusedAnswers(service(source, finder), caller)).toEqual(plain);
    expect([...source.readWhole]).toEqual([caller]);
    expect(JSON.stringify(plain)).toContain('"unmatched":[3]');
  });

  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: answers as reading every session, the projected sessions never read whole`, async () => {
      const source = generatedStore(seed);
      const visibility = toolVisibility(defaultConfig().show_tool_input, defaultConfig().show_tool_output);
      const finder = await MemoryFinder.over(source, visibility);
      const caller = `ses_${seed}_03`;
      const plain = await answers(service(source), caller);
      expect(source.readWhole.size).toBe(source.sessions.size);
      source.readWhole.clear();
      const projected = await answers(service(source, finder), caller);
      expect(projected).toEqual(plain);
      expect(finder.tables).toBeGreaterThan(0);
      expect([...source.readWhole]).toEqual([caller]);
      // A changed session the finder no longer describes is read live, and answers stay.
      finder.forget(`ses_${seed}_05`);
      expect(await answers(service(source, finder), caller)).toEqual(plain);
      expect([...source.readWhole].sort()).toEqual([caller, `ses_${seed}_05`]);
      // One whose chunk table is refused (projected again since the narrowing) is read as it is.
      finder.refused.add(`ses_${seed}_07`);
      expect(await answers(service(source, finder), caller)).toEqual(plain);
      expect(source.readWhole.has(`ses_${seed}_07`)).toBe(true);
    });

    it(`seed ${seed}: a search of plain words reads only the messages it ranks first`, async () => {
      const source = generatedStore(seed);
      const finder = await MemoryFinder.over(source, toolVisibility(defaultConfig().show_tool_input, defaultConfig().show_tool_output));
      const search = service(source, finder);
      // No boost looks for plain words, so none of their candidates is read to be ranked: only the
      // page and one past it.
      for (const query of ["build tests error module", "config module works fails"]) {
        for (const limit of [2, 10]) {
          source.readOne.clear();
          const answer = await search.search({ query, callerSessionId: "ses_elsewhere", scope: "global", limit, types: ["text", "tool"] });
          expect(answer.results.length).toBe(limit);
          expect(source.readOne.size).toBeLessThanOrEqual(limit + 1);
        }
      }
    });
  }
});
