import { describe, expect, it } from "vitest";
import { verdict } from "./ablate.ts";
import type { RealQuestion, RealQuestionKind } from "./questions.ts";
import { summarize } from "./real-report.ts";
import type { Answer } from "./run-real-eval.ts";

/** Answers of ten check-half session questions (six prose, four path) at these ranks. */
function answers(ranks: Array<number | undefined>): Answer[] {
  return ranks.map((rank, i) => {
    const kind: RealQuestionKind = i < 6 ? "prose" : "path";
    const question: RealQuestion = { query: `q${i}`, kind, session: "cc-spotter-ae4a77f8", answers: ["m"] };
    return { question, scope: "session", half: "check", rank, above: [], aboveHits: [] };
  });
}

describe("the ablation's verdict (issue 22's rule, check half)", () => {
  const full = summarize(answers([1, 1, 1, 1, 1, 1, 1, 1, 1, 1]));

  it("keeps a rule whose removal costs the check half a question", () => {
    expect(verdict(full, summarize(answers([undefined, 1, 1, 1, 1, 1, 1, 1, 1, 1]))).keep).toBe(true);
  });

  it("deletes a rule whose removal costs less than a question", () => {
    expect(verdict(full, summarize(answers([2, 1, 1, 1, 1, 1, 1, 1, 1, 1]))).keep).toBe(false);
  });

  it("keeps a rule whose removal gains one kind exactly one of its questions", () => {
    const oneBack = summarize(answers([undefined, undefined, 1, 1, 1, 1, 1, 1, 1, 1]));
    expect(verdict(summarize(answers([1, 1, 1, 1, 1, 1, undefined, 1, 1, 1])), oneBack).keep).toBe(true);
  });

  it("deletes a rule that gains overall but costs one kind more than one of its questions", () => {
    const mixed = summarize(answers([1, 1, 1, 1, 1, 1, 1, 1, 1, 1]));
    const without = summarize(answers([undefined, undefined, undefined, 1, 1, 1, 1, 1, 1, 1]));
    expect(verdict(mixed, without).keep).toBe(true);
    const gainsProseLosesPath = verdict(summarize(answers([1, 1, 1, 1, 1, 1, undefined, undefined, 1, 1])), without);
    expect(gainsProseLosesPath).toEqual({ keep: false, why: "lowers session path on the check half by more than one question" });
  });
});
