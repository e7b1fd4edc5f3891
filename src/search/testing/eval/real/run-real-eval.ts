// Asks the labelled questions of the real sessions through the search service, per session and
// project-wide, on the cold path (scan) or the warm path (built indexes), and scores the answers.

import type { SearchService } from "../../../service.ts";
import { MemorySource } from "../../../../host/testing/memory-source.ts";
import { testService } from "../../service.ts";
import { metrics, type Metrics } from "../run-eval.ts";
import { REAL_QUESTIONS, type RealQuestion, type RealQuestionKind } from "./questions.ts";
import { loadRealSessions, type RealSession } from "./sessions.ts";

export type Scope = "session" | "project";
export const SCOPES: readonly Scope[] = ["session", "project"];
export const KINDS: readonly RealQuestionKind[] = ["prose", "identifier", "error", "path", "number", "command", "typo"];

/** Project-wide questions come from a session outside the corpus, as from a fresh session. */
const CALLER = "ses_eval_caller";
/** Results looked at per question: a first relevant hit below this counts as not found. */
const LIMIT = 10;

export interface ScopeReport {
  overall: Metrics;
  byKind: Partial<Record<RealQuestionKind, Metrics>>;
}

export interface Miss {
  question: RealQuestion;
  scope: Scope;
  /** Rank of the first labelled message, undefined when not in the top LIMIT. */
  rank: number | undefined;
  /** What came first instead: `session/message`. */
  top?: string;
  /** Ids ranked above the first labelled message (all of the top LIMIT when none is there). */
  above: string[];
}

export interface RealEvalReport {
  byScope: Record<Scope, ScopeReport>;
  misses: Miss[];
}

/** The dev corpus as one project in memory. */
export function realSource(sessions: readonly RealSession[] = loadRealSessions()): MemorySource {
  const source = new MemorySource();
  for (const session of sessions) source.add(session.info, session.messages);
  return source;
}

function newService(source: MemorySource): SearchService {
  // A project search must not answer partial on a slow machine: the budget is not what is measured.
  return testService(source, (config) => (config.search.project_time_budget_ms = 60_000));
}

async function ask(service: SearchService, question: RealQuestion, scope: Scope, sessionId: string): Promise<Omit<Miss, "question" | "scope">> {
  const answer = await service.search({
    query: question.query,
    callerSessionId: CALLER,
    sessionId: scope === "session" ? sessionId : undefined,
    scope,
    types: ["text", "tool"],
    limit: LIMIT,
  });
  const expected = new Set(question.answers);
  const index = answer.results.findIndex((r) => expected.has(r.message.id));
  const first = answer.results[0];
  const above = answer.results.slice(0, index < 0 ? LIMIT : index).map((r) => r.message.id);
  return { rank: index < 0 ? undefined : index + 1, top: first && `${first.sessionId}/${first.message.id}`, above };
}

/** Drops the service's indexes: their background builds stop, so a cold run stays cold and cheap. */
function dropIndexes(service: SearchService): void {
  for (const key of service.cache.keys()) service.cache.delete(key);
}

export async function runRealEval(path: "cold" | "warm", sessions: readonly RealSession[] = loadRealSessions()): Promise<RealEvalReport> {
  const source = realSource(sessions);
  const sessionIds = new Map(sessions.map((s) => [s.name, s.info.id]));
  const warm = newService(source);
  if (path === "warm") for (const session of sessions) await warm.indexed(session.info.id);
  const results: Miss[] = [];
  for (const scope of SCOPES) {
    for (const question of REAL_QUESTIONS) {
      if (scope === "project" && question.sessionOnly) continue;
      const sessionId = sessionIds.get(question.session);
      if (!sessionId) throw new Error(`question "${question.query}" names unknown session ${question.session}`);
      // Cold: a fresh service per question, so every question takes the scan path.
      const service = path === "cold" ? newService(source) : warm;
      results.push({ question, scope, ...(await ask(service, question, scope, sessionId)) });
      if (path === "cold") dropIndexes(service);
    }
  }
  const byScope = {} as Record<Scope, ScopeReport>;
  for (const scope of SCOPES) {
    const inScope = results.filter((r) => r.scope === scope);
    const byKind: ScopeReport["byKind"] = {};
    for (const kind of KINDS) {
      const ofKind = inScope.filter((r) => r.question.kind === kind);
      if (ofKind.length > 0) byKind[kind] = metrics(ofKind.map((r) => r.rank));
    }
    byScope[scope] = { overall: metrics(inScope.map((r) => r.rank)), byKind };
  }
  return { byScope, misses: results.filter((r) => r.rank !== 1) };
}

/** `showMisses`: list the questions not answered first; `showAbove`: with the ids ranked above their answer. */
export function formatRealReport(path: string, report: RealEvalReport, showMisses = true, showAbove = false): string {
  const cell = (m: Metrics | undefined) =>
    m ? `${String(m.queries).padStart(5)}  ${m.recallAt5.toFixed(3)}  ${m.mrr.toFixed(3)}` : `${"0".padStart(5)}      -      -`;
  const lines = [
    `real-session eval (${path})`,
    `${"".padEnd(12)}${SCOPES.map((s) => s.padEnd(24)).join("")}`.trimEnd(),
    `${"kind".padEnd(12)}${SCOPES.map(() => "    n  R@5    MRR      ").join("")}`.trimEnd(),
  ];
  for (const name of ["overall", ...KINDS] as const) {
    const cells = SCOPES.map((scope) => cell(name === "overall" ? report.byScope[scope].overall : report.byScope[scope].byKind[name]).padEnd(24));
    lines.push(`${name.padEnd(12)}${cells.join("")}`.trimEnd());
  }
  if (showMisses) {
    for (const miss of report.misses) {
      lines.push(`  ${miss.scope.padEnd(7)} rank ${String(miss.rank ?? "-").padStart(2)}  [${miss.question.kind}] ${miss.question.query}  (first: ${miss.top ?? "nothing"})`);
      if (showAbove) lines.push(`      above: ${miss.above.join(" ")}`);
    }
  }
  return lines.join("\n");
}
