import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { textMessage, toolPart } from "../../history/testing/messages.ts";
import type { HistoryMessage } from "../../history/types.ts";
import { MemorySource } from "../../store/testing/memory-source.ts";
import { FILLER } from "../testing/filler.ts";
import { idsOnBothPaths } from "../testing/service.ts";
import { addSession } from "../testing/sessions.ts";
import type { ScoredDoc } from "../types.ts";
import { bestPartScores, candidateGroups, indexHoldsDepth, maxBoost, messageScore } from "./rank.ts";
import { parseQuery } from "../text/query.ts";
import { DEFAULT_TUNING } from "../tuning.ts";

const T0 = Date.UTC(2025, 0, 1);

/** bestPartScores of chunks sorted best first. */
const partScores = (sorted: readonly { score: number; partId: string }[]) =>
  bestPartScores(
    sorted.map((chunk) => chunk.score),
    sorted.map((chunk) => chunk.partId),
    sorted.map((_, i) => i),
    0,
    sorted.length,
    DEFAULT_TUNING,
  );

let minute = 0;
const text = (role: "user" | "assistant", body: string, extra: Partial<HistoryMessage> = {}): HistoryMessage => ({
  ...textMessage("s1", role, body, T0 + ++minute * 60_000),
  ...extra,
});

describe("message score", () => {
  it("counts a part by its best chunk and a share of its next few spread over all it matched, and a share of the next parts", () => {
    // Sorted best first: part a's chunks 10 and 8, part b's 6, part a's 5, part c's 4.
    const chunks = [10, 8, 6, 5, 4].map((score, i) => ({ score, partId: "aabac"[i]! }));
    const a = 10 + (DEFAULT_TUNING.spread.otherShare * (8 + 5)) / 3;
    expect(partScores(chunks)).toEqual([a, 6, 4]);
    expect(messageScore([a, 6, 4], DEFAULT_TUNING)).toBeCloseTo(a + DEFAULT_TUNING.spread.otherShare * (6 + 4), 9);
    // A part matching in 100 chunks gains little over its best one.
    const long = [10, 9, 9, 9, 9, ...new Array<number>(95).fill(1)].map((score) => ({ score, partId: "a" }));
    expect(partScores(long)).toEqual([10 + (DEFAULT_TUNING.spread.otherShare * 36) / 100]);
  });
});

describe("candidate messages", () => {
  it("orders each message's chunks best first as a stable sort does, short lists and long", () => {
    const messages = [text("user", "one"), text("assistant", "two"), text("user", "three")];
    // Few distinct scores, so many ties; up to 40 chunks a message (past the insertion-sort length).
    const doc = fc.record({ message: fc.nat(2), part: fc.nat(3), score: fc.constantFrom(1, 2, 2.5, 3) });
    fc.assert(
      fc.property(fc.array(doc, { maxLength: 100 }), (shapes) => {
        const docs: ScoredDoc[] = shapes.map(({ message, part, score }, i) => ({
          message: messages[message]!,
          partId: `prt_${part}`,
          type: "text",
          start: i,
          end: i + 1,
          score,
        }));
        for (const group of candidateGroups(docs, DEFAULT_TUNING)) {
          const own = docs.filter((d) => d.message === group.message);
          const sorted = [...own].sort((a, b) => b.score - a.score);
          expect(group.docs).toEqual(sorted);
          const scores = partScores(sorted);
          expect(scores).toEqual([...scores].sort((a, b) => b - a));
          expect(group.score).toBe(messageScore(scores, DEFAULT_TUNING));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("long messages", () => {
  it("a 50-chunk output with the words scattered does not beat a short message holding them all", async () => {
    // Each 4 KB chunk of the diff holds two of the query's three words, many times.
    const words = ["ledger", "rounding", "drift"];
    const chunk = (i: number) => `+ ${words[i % 3]} ${words[(i + 1) % 3]} line changed in the module\n`.repeat(30) + "+ unrelated context line\n".repeat(100);
    const diff = Array.from({ length: 50 }, (_, i) => chunk(i)).join("");
    const messages = [
      ...FILLER.map((line) => text("user", line)),
      text("assistant", "Here is the diff.", {}),
      text("assistant", "The ledger rounding drift comes from summing floats before rounding."),
      ...FILLER.map((line) => text("assistant", line)),
    ];
    messages[FILLER.length]!.parts.push(toolPart("bash", { command: "git diff" }, diff));
    const source = new MemorySource();
    addSession(source, "s1", messages);
    const { cold, warm } = await idsOnBothPaths(source, "s1", "ledger rounding drift");
    const short = messages[FILLER.length + 1]!.id;
    expect([cold[0], warm[0]]).toEqual([short, short]);
  });
});

describe("compaction summaries", () => {
  // The original tells it in passing; the summary restates it densely.
  const original = "Looked at the pipeline logs again: the deploy failed because the registry token had expired, so I rotated it and reran the job.";
  const restated = "Deploy: failed, registry token expired. Registry token rotated, deploy rerun. Token now in the vault.";

  for (const [name, summary] of [
    ["the host's summary", () => text("assistant", restated, { summary: true, agent: "compaction" })],
    [
      "a summary carried in as a user message",
      () => text("user", `This session is being continued from a previous conversation that ran out of context. ${restated}`),
    ],
  ] as const) {
    it(`rank below the original message they restate: ${name}`, async () => {
      const messages = [...FILLER.map((line) => text("user", line)), text("assistant", original), ...FILLER.map((line) => text("assistant", line)), summary()];
      const source = new MemorySource();
      addSession(source, "s1", messages);
      const { cold, warm } = await idsOnBothPaths(source, "s1", "deploy registry token");
      const first = messages[FILLER.length]!.id;
      const last = messages[messages.length - 1]!.id;
      expect([cold.slice(0, 2), warm.slice(0, 2)]).toEqual([
        [first, last],
        [first, last],
      ]);
    });
  }

  it("are found first when only they hold the answer", async () => {
    const messages = [...FILLER.map((line) => text("assistant", line)), text("assistant", restated, { summary: true, agent: "compaction" })];
    const source = new MemorySource();
    addSession(source, "s1", messages);
    const { cold, warm } = await idsOnBothPaths(source, "s1", "vault registry token");
    const summary = messages[messages.length - 1]!.id;
    expect([cold[0], warm[0]]).toEqual([summary, summary]);
  });
});

describe("the index's messages for a ranking depth", () => {
  // A path: the compound boost can raise a message left out.
  const parsed = parseQuery("src/limiter.ts token bucket", DEFAULT_TUNING);
  /** One single-chunk text message a score, in score order (best first, as the index gives them). */
  const docsOf = (scores: number[]): ScoredDoc[] =>
    scores.map((score) => ({ message: text("assistant", `message scoring ${score}`), partId: `prt_${score}`, type: "text", start: 0, end: 10, score }));

  it("holds the depth when the index had fewer messages than asked, or none left out can reach the depth-th", () => {
    expect(indexHoldsDepth(docsOf([5, 4, 3]), 10, 2, parsed)).toBe(true);
    // Asked for 4 and given 4: a message left out scores at most 1 before the boosts; the 2nd scores 9.
    expect(indexHoldsDepth(docsOf([10, 9, 8, 1]), 4, 2, parsed)).toBe(true);
  });

  it("does not hold it when a message left out could still be boosted past the depth-th", () => {
    // Flat scores: one scoring 2 before the boosts left out may reach the 3rd (2.1) boosted.
    expect(maxBoost(parsed)).toBeGreaterThan(2.1 / 2);
    expect(indexHoldsDepth(docsOf([2.3, 2.2, 2.1, 2.05]), 4, 3, parsed)).toBe(false);
    // More asked for than the depth needs: none of the few left out can reach it.
    expect(indexHoldsDepth(docsOf([2.3, 2.2, 2.1, 2.05, 0.1]), 5, 3, parsed)).toBe(true);
  });
});
