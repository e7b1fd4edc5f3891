import { describe, expect, it } from "vitest";
import { chooseSetting, ineligible, type SweptFigures } from "./sweep.ts";

/** A setting's figures: [recall@5, MRR] per scope, overall then prose. */
function figures(name: string, session: [number, number, number, number], project: [number, number, number, number]): SweptFigures {
  const scope = ([r, m, pr, pm]: [number, number, number, number]) => ({
    overall: { queries: 100, recallAt5: r, mrr: m },
    prose: { queries: 40, recallAt5: pr, mrr: pm },
  });
  return { name, byScope: { session: scope(session), project: scope(project) } };
}

describe("the sweep's selection rule", () => {
  const main = figures("main", [0.88, 0.75, 0.7, 0.55], [0.8, 0.68, 0.6, 0.46]);

  it("chooses the highest MRR sum among settings that keep every recall@5 of main", () => {
    const better = figures("better", [0.88, 0.77, 0.7, 0.56], [0.8, 0.69, 0.6, 0.47]);
    const best = figures("best", [0.89, 0.78, 0.72, 0.57], [0.8, 0.69, 0.6, 0.47]);
    expect(chooseSetting(main, [better, best]).name).toBe("best");
  });

  it("passes over a higher MRR sum that loses a prose question at recall@5 in either scope", () => {
    const losesProse = figures("loses-prose", [0.88, 0.8, 0.7, 0.6], [0.8, 0.7, 0.575, 0.5]);
    expect(ineligible(main, losesProse)).toBe("recall@5 below main's: project prose");
    const better = figures("better", [0.88, 0.76, 0.7, 0.55], [0.8, 0.68, 0.6, 0.46]);
    expect(chooseSetting(main, [losesProse, better]).name).toBe("better");
  });

  it("keeps main when nothing eligible beats its sum, and on a tie", () => {
    const tie = figures("tie", [0.88, 0.76, 0.7, 0.55], [0.8, 0.67, 0.6, 0.46]);
    const lower = figures("lower", [0.9, 0.7, 0.75, 0.5], [0.85, 0.6, 0.65, 0.4]);
    expect(ineligible(main, tie)).toBeUndefined();
    expect(chooseSetting(main, [tie, lower]).name).toBe("main");
  });
});
