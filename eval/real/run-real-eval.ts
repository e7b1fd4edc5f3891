// Asks the labelled questions of the real sessions through the search service, per session and
// project-wide, on the cold path (scan) or the warm path (built indexes), and ranks the answers.
// Each project of the split (split.ts) is its own source: dev/'s 8 sessions, the sessions drawn from
// swebench/, and dev2/'s groups of sibling sessions.

import type { InspectableSearchService } from "../../src/search/service.ts";
import { MemorySource } from "../../src/store/testing/memory-source.ts";
import { testService } from "../../src/search/testing/service.ts";
import { DEFAULT_TUNING, MAX_QUERY_CHARS, type SearchTuning } from "../../src/search/api.ts";
import { alternativesOf, type Phrasing } from "./alternatives.ts";
import { REAL_QUESTIONS } from "./question-sets.ts";
import type { RealQuestion, RealQuestionKind } from "./questions.ts";
import { loadEvalSessions, type RealSession } from "./sessions.ts";
import { halfOf, projectOf as splitProjectOf, type Half } from "./split.ts";

export type Scope = "session" | "project";
export const SCOPES: readonly Scope[] = ["session", "project"];
export const KINDS: readonly RealQuestionKind[] = ["prose", "identifier", "error", "path", "number", "command", "typo"];

/** Project-wide questions come from a session outside the corpus, as from a fresh session. */
const CALLER = "ses_eval_caller";
/** Results looked at per question: a first relevant hit below this counts as not found. */
const LIMIT = 10;

/** One question asked in one scope. */
export interface Answer {
  question: RealQuestion;
  scope: Scope;
  half: Half;
  /** Rank of the first labelled message, undefined when not in the top LIMIT. */
  rank: number | undefined;
  /** What came first instead: `session/message`. */
  top?: string;
  /** Ids ranked above the first labelled message (all of the top LIMIT when none is there). */
  above: string[];
  /** Per id of `above`, the kind of its best hit: text, reasoning, or tool and the tool's name. */
  aboveHits: string[];
}

/** A session's project in the eval, as the split lists it. */
const projectOf = (session: RealSession): string => splitProjectOf(session.name);

/** Sessions in memory, one source per project. */
function realSources(sessions: readonly RealSession[]): Map<string, MemorySource> {
  const sources = new Map<string, MemorySource>();
  for (const session of sessions) {
    const source = sources.get(projectOf(session)) ?? new MemorySource();
    source.add(session.info, session.messages);
    sources.set(projectOf(session), source);
  }
  return sources;
}

function newService(source: MemorySource, tuning: SearchTuning): InspectableSearchService {
  // A project search must not answer partial on a slow machine: the budget is not what is measured.
  return testService(source, (config) => (config.search.project_time_budget_ms = 60_000), tuning);
}

async function ask(
  service: InspectableSearchService,
  question: RealQuestion,
  scope: Scope,
  sessionId: string,
  phrasing: Phrasing,
): Promise<Pick<Answer, "rank" | "top" | "above" | "aboveHits">> {
  const alternatives = phrasing === "query" ? [] : alternativesOf(question.query);
  const appended = phrasing === "appended" && alternatives.length > 0;
  const answer = await service.search({
    // Appended: one bag of words, cut to the query's length limit.
    query: appended ? [question.query, ...alternatives].join(" ").slice(0, MAX_QUERY_CHARS) : question.query,
    ...(phrasing === "fused" && alternatives.length > 0 ? { alternatives } : {}),
    callerSessionId: CALLER,
    sessionId: scope === "session" ? sessionId : undefined,
    scope,
    types: ["text", "tool"],
    limit: LIMIT,
  });
  const expected = new Set(question.answers);
  const index = answer.results.findIndex((r) => expected.has(r.message.id));
  const first = answer.results[0];
  const aboveResults = answer.results.slice(0, index < 0 ? LIMIT : index);
  const above = aboveResults.map((r) => r.message.id);
  const aboveHits = aboveResults.map((r) => (r.hits[0] ? `${r.hits[0].type}${r.hits[0].tool ? ` ${r.hits[0].tool}` : ""}` : "none"));
  return { rank: index < 0 ? undefined : index + 1, top: first && `${first.sessionId}/${first.message.id}`, above, aboveHits };
}

/** Drops the service's indexes: their background builds stop, so a cold run stays cold and cheap. */
function dropIndexes(service: InspectableSearchService): void {
  for (const key of service.cache.keys()) service.cache.delete(key);
}

/** Every question in each scope it is asked in (session-only ones not project-wide), in order: per scope, per question. */
export async function runRealEval(
  path: "cold" | "warm",
  sessions: readonly RealSession[] = loadEvalSessions(),
  questions: readonly RealQuestion[] = REAL_QUESTIONS,
  phrasing: Phrasing = "query",
  tuning: SearchTuning = DEFAULT_TUNING,
): Promise<Answer[]> {
  // Per project its source and one service kept across questions (the warm path's).
  const projects = new Map([...realSources(sessions)].map(([project, source]) => [project, { source, warm: newService(source, tuning) }]));
  const byName = new Map(sessions.map((s) => [s.name, { id: s.info.id, project: projects.get(projectOf(s))! }]));
  if (path === "warm") for (const { id, project } of byName.values()) await project.warm.buildIndex(id);
  const answers: Answer[] = [];
  for (const scope of SCOPES) {
    for (const question of questions) {
      if (scope === "project" && question.sessionOnly) continue;
      const session = byName.get(question.session);
      if (!session) throw new Error(`question "${question.query}" names unknown session ${question.session}`);
      // Cold: a fresh service per question, so every question takes the scan path.
      const service = path === "cold" ? newService(session.project.source, tuning) : session.project.warm;
      answers.push({ question, scope, half: halfOf(question.session), ...(await ask(service, question, scope, session.id, phrasing)) });
      if (path === "cold") dropIndexes(service);
    }
  }
  return answers;
}
