import { describe, expect, it } from "vitest";
import { QUERIES, SESSIONS } from "./corpus.ts";
import { formatReport, runEval } from "./run-eval.ts";

describe("search quality (labelled eval)", () => {
  it("has enough queries, sessions and kinds", () => {
    expect(QUERIES.length).toBeGreaterThanOrEqual(80);
    expect(SESSIONS.length).toBeGreaterThanOrEqual(5);
    expect(QUERIES.filter((q) => q.scope === "project").length).toBeGreaterThan(0);
  });

  for (const path of ["cold", "warm"] as const) {
    it(`meets the recall@5 and MRR floors on the ${path} path`, async () => {
      const report = await runEval(path);
      console.log(formatReport(path, report));
      expect(report.overall.recallAt5).toBeGreaterThanOrEqual(0.95);
      expect(report.overall.mrr).toBeGreaterThanOrEqual(0.85);
    });
  }
});
