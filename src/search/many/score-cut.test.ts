import { describe, expect, it } from "vitest";
import type { SessionInfo } from "../../history/types.ts";
import { REACH_SCALE } from "./session-terms.ts";
import type { Candidates } from "../rank/candidates.ts";
import { MessageCutRanking, ScoreCut } from "./score-cut.ts";
import { parseQuery } from "../text/query.ts";
import type { ProjectedTerms } from "../types.ts";

const session = (id: string): SessionInfo => ({ id, title: "", created: 0, updated: 0 });
/** Candidates as the cut sees them: their best scores. */
const best = (...scores: number[]) => ({ top: (k: number) => scores.slice(0, k).map((score) => ({ score })) }) as unknown as Candidates;
const described = (reach: number): ProjectedTerms => ({ docs: 2, length: 100, df: [1], reach: [reach * REACH_SCALE] });

describe("the score-bound cut", () => {
  // a is read and holds a message scoring 100; b's read is under way; c can score far less.
  const [a, b, c] = [session("a"), session("b"), session("c")];
  const projected = new Map([
    ["a", described(1)],
    ["b", described(0.9)],
    ["c", described(0.5)],
  ]);
  function cut(): ScoreCut {
    const scoreCut = ScoreCut.over(parseQuery("limiter"), new MessageCutRanking(1), { docs: 10, length: 1_000, df: [3] })!;
    expect(scoreCut.order([c, b, a], projected).map((entry) => entry.session.id)).toEqual(["a", "b", "c"]);
    scoreCut.add(a, best(100));
    return scoreCut;
  }

  it("goes on past a session that ran out of time (it is counted unsearched)", () => {
    const scoreCut = cut();
    scoreCut.check({ docs: [], via: "scan", timedOut: true }, projected.get("b")!);
    expect(scoreCut.excludes(2)).toBe(true);
  });

  it("ends at a session that failed or does not count as projected", () => {
    const failed = cut();
    failed.check(undefined, projected.get("b")!);
    expect(failed.excludes(2)).toBe(false);
    const other = cut();
    other.check({ docs: [], via: "scan", stats: { docs: 3, length: 100, df: [1] } }, projected.get("b")!);
    expect(other.excludes(2)).toBe(false);
  });
});
