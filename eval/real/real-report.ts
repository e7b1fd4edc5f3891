// Scores the real-session eval's answers (recall@5, MRR) per half, scope, kind and agent family, or
// per left-out session, and prints them as tables.

import { metrics, type Metrics } from "../run-eval.ts";
import type { RealQuestionKind } from "./questions.ts";
import { KINDS, SCOPES, type Answer, type Scope } from "./run-real-eval.ts";
import { FAMILIES, type Family, familyOf, HALVES, SPLIT, type Half } from "./split.ts";

type HalfOrAll = Half | "all";
const COLUMNS: readonly HalfOrAll[] = [...HALVES, "all"];

interface ScopeReport {
  overall: Metrics;
  byKind: Partial<Record<RealQuestionKind, Metrics>>;
  /** Per agent family of the questions' sessions (split.ts). */
  byFamily: Partial<Record<Family, Metrics>>;
}

export interface RealEvalReport {
  /** Per half (and both together), per scope. */
  byHalf: Record<HalfOrAll, Record<Scope, ScopeReport>>;
  /** Answers whose first labelled message did not come first. */
  misses: Answer[];
}

function scopeReport(answers: readonly Answer[]): ScopeReport {
  const byKind: ScopeReport["byKind"] = {};
  for (const kind of KINDS) {
    const ofKind = answers.filter((a) => a.question.kind === kind);
    if (ofKind.length > 0) byKind[kind] = metrics(ofKind.map((a) => a.rank));
  }
  const byFamily: ScopeReport["byFamily"] = {};
  for (const family of FAMILIES) {
    const ofFamily = answers.filter((a) => familyOf(a.question.session) === family);
    if (ofFamily.length > 0) byFamily[family] = metrics(ofFamily.map((a) => a.rank));
  }
  return { overall: metrics(answers.map((a) => a.rank)), byKind, byFamily };
}

export function summarize(answers: readonly Answer[]): RealEvalReport {
  const byHalf = {} as RealEvalReport["byHalf"];
  for (const column of COLUMNS) {
    const inHalf = answers.filter((a) => column === "all" || a.half === column);
    byHalf[column] = { session: scopeReport(inHalf.filter((a) => a.scope === "session")), project: scopeReport(inHalf.filter((a) => a.scope === "project")) };
  }
  return { byHalf, misses: answers.filter((a) => a.rank !== 1) };
}

const cell = (m: Metrics | undefined) =>
  m ? `${String(m.queries).padStart(5)}  ${m.recallAt5.toFixed(3)}  ${m.mrr.toFixed(3)}` : `${"0".padStart(5)}      -      -`;
const CELL_WIDTH = 24;

/**
 * Per scope, a table of kinds, then of the agent families asked about, against tuning / check / all.
 * `showMisses`: the questions not answered first; `showAbove`: with the ids ranked above.
 */
export function formatRealReport(path: string, report: RealEvalReport, showMisses = true, showAbove = false): string {
  const lines = [`real-session eval (${path})`];
  const head = (name: string) => `${name.padEnd(14)}${COLUMNS.map(() => "    n  R@5    MRR".padEnd(CELL_WIDTH)).join("")}`.trimEnd();
  const row = (name: string, of: (got: ScopeReport) => Metrics | undefined, scope: Scope) =>
    `${name.padEnd(14)}${COLUMNS.map((c) => cell(of(report.byHalf[c][scope])).padEnd(CELL_WIDTH)).join("")}`.trimEnd();
  for (const scope of SCOPES) {
    lines.push(`${`${scope} scope`.padEnd(14)}${COLUMNS.map((c) => c.padEnd(CELL_WIDTH)).join("")}`.trimEnd());
    lines.push(head("kind"));
    lines.push(row("overall", (got) => got.overall, scope));
    for (const kind of KINDS) lines.push(row(kind, (got) => got.byKind[kind], scope));
    // Only the families with questions in this scope, so a run of one set prints only its own.
    const families = FAMILIES.filter((family) => report.byHalf.all[scope].byFamily[family]);
    if (families.length > 0) lines.push(head("family"));
    for (const family of families) lines.push(row(family, (got) => got.byFamily[family], scope));
  }
  if (showMisses) {
    for (const miss of report.misses) {
      lines.push(
        `  ${miss.half.padEnd(6)} ${miss.scope.padEnd(7)} rank ${String(miss.rank ?? "-").padStart(2)}  [${miss.question.kind}] ${miss.question.query}  (first: ${miss.top ?? "nothing"})`,
      );
      if (showAbove) lines.push(`      above: ${miss.above.join(" ")}`);
    }
  }
  return lines.join("\n");
}

export interface LeftOut {
  session: string;
  half: Half;
  /** Per scope: the left-out session's questions, and every other session's. */
  byScope: Record<Scope, { left: Metrics; rest: Metrics }>;
}

/** Leave-one-session-out: for each session of the split, its questions against all the others'. */
export function leaveOneSessionOut(answers: readonly Answer[]): LeftOut[] {
  return SPLIT.map(({ name, half }) => {
    const byScope = {} as LeftOut["byScope"];
    for (const scope of SCOPES) {
      const inScope = answers.filter((a) => a.scope === scope);
      byScope[scope] = {
        left: metrics(inScope.filter((a) => a.question.session === name).map((a) => a.rank)),
        rest: metrics(inScope.filter((a) => a.question.session !== name).map((a) => a.rank)),
      };
    }
    return { session: name, half, byScope };
  });
}

export function formatLeaveOneSessionOut(path: string, rows: readonly LeftOut[]): string {
  const width = Math.max(...rows.map((r) => r.session.length)) + 2;
  const heads = SCOPES.flatMap((s) => [`${s}: left out`, "rest"]);
  const lines = [
    `leave-one-session-out (${path}): each session's questions, and the other sessions' together`,
    `${"".padEnd(width + 8)}${heads.map((h) => h.padEnd(CELL_WIDTH)).join("")}`.trimEnd(),
    `${"session".padEnd(width)}${"half".padEnd(8)}${heads.map(() => "    n  R@5    MRR".padEnd(CELL_WIDTH)).join("")}`.trimEnd(),
  ];
  for (const row of rows) {
    const cells = SCOPES.flatMap((s) => [row.byScope[s].left, row.byScope[s].rest]).map((m) =>
      (m.queries === 0 ? cell(undefined) : cell(m)).padEnd(CELL_WIDTH),
    );
    lines.push(`${row.session.padEnd(width)}${row.half.padEnd(8)}${cells.join("")}`.trimEnd());
  }
  return lines.join("\n");
}
