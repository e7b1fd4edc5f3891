import { describe, expect, it } from "vitest";
import { tuningWith } from "../testing/tuning.ts";
import { fusedDepth, fuseRankings } from "./fusion.ts";
import { DEFAULT_TUNING } from "../tuning.ts";

const ranking = (...keys: string[]) => keys.map((key, i) => ({ key, score: 10 - i, item: `${key}@${i}` }));

describe("fuseRankings, reciprocal rank fusion", () => {
  const rankFusion = tuningWith({ fusion: { method: "rank", k: 60, queryWeight: 1 } });

  it("rank fusion: a message two phrasings rank beats one only the query ranks first", () => {
    const fused = fuseRankings([ranking("a", "b", "c"), ranking("b", "d"), ranking("e", "b")], rankFusion);
    expect(fused.map((f) => f.key)).toEqual(["b", "a", "e", "d", "c"]);
    const b = fused[0]!;
    expect(b.by).toEqual([0, 1, 2]);
    // Shown as the phrasing that ranked it highest found it.
    expect(b.best).toEqual({ phrasing: 1, place: 0, item: "b@0" });
    expect(b.score).toBeCloseTo(1 / 62 + 1 / 61 + 1 / 62, 12);
    expect(fused.find((f) => f.key === "d")!.by).toEqual([1]);
  });

  it("equal fused scores: the better place first, then the earlier phrasing", () => {
    const fused = fuseRankings([ranking("a", "x"), ranking("b", "y")], rankFusion);
    expect(fused.map((f) => f.key)).toEqual(["a", "b", "x", "y"]);
  });

  it("one phrasing alone keeps its order", () => {
    expect(fuseRankings([ranking("c", "a", "b")], rankFusion).map((f) => f.key)).toEqual(["c", "a", "b"]);
  });

  it("the query's weight is read from the tuning", () => {
    const weighted = tuningWith({ fusion: { queryWeight: 3 } }, rankFusion);
    // 3/62 for the query's second beats 1/61 + 1/63 for an alternative's first and third.
    expect(fuseRankings([ranking("a", "b"), ranking("c"), ranking("x", "y", "c")], weighted)[1]!.key).toBe("b");
    // Weighed alike, c (1/61 + 1/63) leads and b is fourth.
    expect(fuseRankings([ranking("a", "b"), ranking("c"), ranking("x", "y", "c")], rankFusion).map((f) => f.key)).toEqual(["c", "a", "x", "b", "y"]);
  });
});

describe("fuseRankings, score fusion", () => {
  it("each phrasing's scores over its own top score, the query's weighed as the tuning says", () => {
    const alike = tuningWith({ fusion: { method: "score", queryWeight: 1 } });
    const two: Array<Array<{ key: string; score: number; item: number }>> = [
      [
        { key: "a", score: 10, item: 0 },
        { key: "b", score: 2, item: 1 },
      ],
      [{ key: "b", score: 10, item: 0 }],
    ];
    // Weighed alike, b (0.2 + 1) would beat a (1).
    expect(fuseRankings(two, alike)[0]!.key).toBe("b");
    const fused = fuseRankings(
      [
        [
          { key: "a", score: 8, item: 0 },
          { key: "b", score: 2, item: 1 },
        ],
        [
          { key: "b", score: 30, item: 0 },
          { key: "c", score: 27, item: 1 },
        ],
      ],
      alike,
    );
    expect(fused.map((f) => [f.key, Number(f.score.toFixed(3))])).toEqual([
      ["b", 1.25],
      ["a", 1],
      ["c", 0.9],
    ]);
    // The query's second weighs 2 × 0.2 with the alternative's first: below the query's first at 2.
    const weightedFused = fuseRankings(two, tuningWith({ fusion: { queryWeight: 2 } }, alike));
    expect(weightedFused.map((f) => [f.key, f.score])).toEqual([
      ["a", 2],
      ["b", 1.4],
    ]);
  });

  it("ranks each phrasing at least as deep as the tuning's depth", () => {
    expect(fusedDepth(11, DEFAULT_TUNING)).toBeGreaterThanOrEqual(11);
    expect(fusedDepth(1000, DEFAULT_TUNING)).toBe(1000);
  });
});
