// Runs the labelled queries against the corpus and reports recall@5 and MRR, overall and per kind,
// on the cold path (scan) or the warm path (built index).

import { nextId } from "../src/history/testing/messages.ts";
import type { HistoryMessage } from "../src/history/types.ts";
import { MemorySource } from "../src/store/testing/memory-source.ts";
import type { SearchService } from "../src/search/types.ts";
import { testService } from "../src/search/testing/service.ts";
import { DISTRACTORS, QUERIES, SESSIONS, type EvalQuery, type QueryKind } from "./corpus.ts";

export interface Metrics {
  queries: number;
  recallAt5: number;
  mrr: number;
}

export interface EvalReport {
  overall: Metrics;
  byKind: Record<string, Metrics>;
  misses: Array<{ query: EvalQuery; rank: number | undefined }>;
}

const T0 = Date.UTC(2025, 2, 1);

/** The corpus as host messages, each session's labelled messages interleaved with fillers. */
function buildCorpus(): { source: MemorySource; keys: Map<string, string> } {
  const source = new MemorySource();
  const keys = new Map<string, string>();
  let clock = T0;
  SESSIONS.forEach((session, s) => {
    const messages: HistoryMessage[] = [];
    const created = clock;
    session.messages.forEach((m, i) => {
      // Two fillers before each message, rotating through the pool: distractors everywhere.
      for (let f = 0; f < 2; f++) {
        const text = DISTRACTORS[(s * 7 + i * 2 + f) % DISTRACTORS.length]!;
        const role = f === 0 ? "user" : "assistant";
        messages.push({ id: nextId("msg"), sessionId: session.id, role, created: (clock += 1000), parts: [{ kind: "text", id: nextId("prt"), text }] });
      }
      const message: HistoryMessage = { id: nextId("msg"), sessionId: session.id, role: m.role, created: (clock += 1000), parts: [] };
      if (m.tool) {
        message.parts.push({ kind: "text", id: nextId("prt"), text: m.text });
        message.parts.push({
          kind: "tool",
          id: nextId("prt"),
          callId: nextId("call"),
          tool: m.tool.name,
          status: "completed",
          input: m.tool.input,
          output: m.tool.output,
        });
      } else {
        message.parts.push({ kind: "text", id: nextId("prt"), text: m.text });
      }
      messages.push(message);
      if (m.key) keys.set(m.key, message.id);
    });
    source.add({ id: session.id, title: session.title, created, updated: clock }, messages);
  });
  return { source, keys };
}

export function metrics(ranks: Array<number | undefined>): Metrics {
  const n = ranks.length;
  const hits = ranks.filter((r) => r !== undefined && r <= 5).length;
  const rr = ranks.reduce<number>((sum, r) => sum + (r === undefined ? 0 : 1 / r), 0);
  return { queries: n, recallAt5: n === 0 ? 0 : hits / n, mrr: n === 0 ? 0 : rr / n };
}

async function rankOf(service: SearchService, query: EvalQuery, expected: ReadonlySet<string>): Promise<number | undefined> {
  const answer = await service.search({
    query: query.query,
    callerSessionId: query.scope === "project" ? query.session : "ses_caller",
    sessionId: query.scope === "project" ? undefined : query.session,
    scope: query.scope ?? "session",
    literal: query.literal ?? false,
    types: ["text", "tool"],
    limit: 10,
  });
  const index = answer.results.findIndex((r) => expected.has(r.message.id));
  return index < 0 ? undefined : index + 1;
}

export async function runEval(path: "cold" | "warm"): Promise<EvalReport> {
  const { source, keys } = buildCorpus();
  const service = testService(source, (config) => (config.search.project_time_budget_ms = 60_000));
  if (path === "warm") for (const session of SESSIONS) await service.buildIndex(session.id);
  const ranks: Array<{ query: EvalQuery; rank: number | undefined }> = [];
  for (const query of QUERIES) {
    const expected = new Set<string>();
    for (const key of typeof query.answer === "string" ? [query.answer] : query.answer) {
      const id = keys.get(key);
      if (!id) throw new Error(`eval query "${query.query}" names unknown answer ${key}`);
      expected.add(id);
    }
    // Cold: a fresh service per query so every query takes the scan path.
    const run = path === "cold" ? testService(source, (config) => (config.search.project_time_budget_ms = 60_000)) : service;
    ranks.push({ query, rank: await rankOf(run, query, expected) });
  }
  const byKind: Record<string, Metrics> = {};
  const kinds = [...new Set(QUERIES.map((q) => q.kind))] as QueryKind[];
  for (const kind of kinds) byKind[kind] = metrics(ranks.filter((r) => r.query.kind === kind).map((r) => r.rank));
  return {
    overall: metrics(ranks.map((r) => r.rank)),
    byKind,
    misses: ranks.filter((r) => r.rank !== 1),
  };
}

export function formatReport(path: string, report: EvalReport): string {
  const row = (name: string, m: Metrics) => `${name.padEnd(12)} ${String(m.queries).padStart(4)}  ${m.recallAt5.toFixed(3)}  ${m.mrr.toFixed(3)}`;
  const lines = [`eval (${path})    n  recall@5  MRR`, row("overall", report.overall)];
  for (const [kind, m] of Object.entries(report.byKind)) lines.push(row(kind, m));
  for (const miss of report.misses) lines.push(`  rank ${miss.rank ?? "-"}: [${miss.query.kind}] ${miss.query.query}`);
  return lines.join("\n");
}
