// Candidates ranked from what the projection keeps equal the engine's after a full read: every
// matching message, with the same score before the boosts, in the same order, over sessions
// scored against the scope's shared statistics; with filters, a plain question (tool chunks
// weighed down) and a summary.
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../config/schema.ts";
import { reasoningPart, textMessage, toolPart } from "../../history/testing/messages.ts";
import { toolVisibility } from "../../history/tool-visibility.ts";
import type { HistoryMessage } from "../../history/types.ts";
import { buildView } from "../../history/view.ts";
import { seededRandom } from "../../util/testing/seeded-random.ts";
import { addStats, type CollectionStats, emptyStats } from "../rank/bm25.ts";
import { toolChunkWeight } from "../rank/plain-question.ts";
import { boostGroup, candidateGroups, textReader } from "../rank/rank.ts";
import { chunkScorers, rescore, termFactors } from "../rank/rescore.ts";
import { countSession, scoreScan } from "../scan/scan.ts";
import { parseQuery } from "../text/query.ts";
import { type DocFilter, type ProjectedHolder, TERM_CHUNK_STRIDE } from "../types.ts";
import { holderBounds, holderCeiling, projectedGroups, resolveGroup, termCeiling } from "./projected-ranking.ts";
import { sessionTerms } from "../index/session-terms.ts";
import { DEFAULT_TUNING } from "../tuning.ts";

const WORDS = [
  "build",
  "tests",
  "error",
  "computeLineItemTotals",
  "débito",
  "limiter",
  "the",
  "why",
  "did",
  "retries",
  "bucket",
  "fails",
  "config",
  "I",
  "said",
];
const QUERIES = [
  "build error",
  "why did the bucket limiter config fails",
  "what did the user say about retries",
  "computeLineItemTotals",
  "bucket config tests",
  "débito",
];

function session(seed: number): HistoryMessage[] {
  const random = seededRandom(seed);
  const id = `ses_${seed}`;
  const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(" ");
  const messages: HistoryMessage[] = [];
  const count = 2 + Math.floor(random() * 10);
  for (let m = 0; m < count; m++) {
    const text = random() < 0.15 ? Array.from({ length: 900 }, () => words(2)).join("\n") : words(3 + Math.floor(random() * 40));
    const extra =
      random() < 0.4 ? [toolPart(random() < 0.5 ? "bash" : "read", { command: words(6) }, words(20))] : random() < 0.3 ? [reasoningPart(words(9))] : [];
    const message = textMessage(id, m % 2 === 0 ? "user" : "assistant", text, 1_000 * seed + m, extra);
    if (m % 2 === 1 && random() < 0.15) message.summary = true;
    if (m % 2 === 0 && random() < 0.15) message.hostWritten = true;
    messages.push(message);
  }
  return messages;
}

const FILTERS: Array<[string, DocFilter]> = [
  ["no filter", () => true],
  ["text and tool only", (_, type) => type !== "reasoning"],
  ["assistant's bash calls and texts", (message, type, tool) => message.role === "assistant" && (type !== "tool" || tool === "bash")],
];

describe("projectedGroups: the engine's candidates without reading the sessions", () => {
  it("asks a plain question among its queries", () => {
    expect(QUERIES.some((query) => toolChunkWeight(parseQuery(query, DEFAULT_TUNING)) !== 1)).toBe(true);
  });

  for (const seed of [1, 2]) {
    it(`seed ${seed}: every candidate's score before the boosts equals a full read's`, async () => {
      const config = defaultConfig();
      const visibility = toolVisibility(config.show_tool_input, config.show_tool_output);
      const sessions = Array.from({ length: 8 }, (_, s) => ({ id: `ses_${seed * 100 + s}`, messages: session(seed * 100 + s) }));
      const kept = await Promise.all(sessions.map(({ id, messages }) => sessionTerms(id, messages, visibility, DEFAULT_TUNING, () => undefined)));
      let compared = 0;
      for (const query of QUERIES) {
        const parsed = parseQuery(query, DEFAULT_TUNING);
        for (const [, accept] of FILTERS) {
          // The full read: each session scanned, its documents rescored against the scope's statistics.
          const scans = await Promise.all(
            sessions.map(async ({ id, messages }) => {
              const view = buildView(id, messages, false);
              const counts = await countSession(view.messages.slice(0, view.visibleEnd), visibility, parsed.terms, DEFAULT_TUNING, accept);
              const stats = emptyStats(parsed.terms.length);
              return { docs: scoreScan(counts!, { stats }), stats };
            }),
          );
          const shared = emptyStats(parsed.terms.length);
          for (const { stats } of scans) addStats(shared, stats);
          sessions.forEach(({ id }, s) => {
            const { docs, stats } = scans[s]!;
            rescore(docs, parsed, shared, stats, textReader(visibility));
            const read = candidateGroups(docs, DEFAULT_TUNING, parsed).map((group) => [group.message.id, group.score]);
            const termChunks = parsed.terms.map((term) => kept[s]!.postings.get(term.token) ?? []);
            const own: CollectionStats = { docs: kept[s]!.docs, length: kept[s]!.length, df: termChunks.map((list) => list.length / TERM_CHUNK_STRIDE) };
            expect(own).toEqual(stats);
            const { groups, turns } = projectedGroups(id, kept[s]!.chunks, termChunks, parsed, own, shared, accept);
            const projected = groups.map((group) => [group.message.id, group.score]);
            const view = buildView(id, sessions[s]!.messages, false);
            for (const group of groups) expect(turns.get(group.message.id)).toBe(view.turnNumbers[view.messages.findIndex((m) => m.id === group.message.id)]);
            expect(projected.map(([message]) => message)).toEqual(read.map(([message]) => message));
            for (const [i, [, score]] of projected.entries()) expect(score).toBeCloseTo(read[i]![1] as number, 12);
            compared += read.length;
          });
        }
      }
      expect(compared).toBeGreaterThan(100);
    });
  }
});

describe("holderCeiling and holderBounds: what a session's messages can score, from its postings", () => {
  it("the ceiling is at least the first bound, and the i-th bound at least the i-th best message after the boosts", async () => {
    const config = defaultConfig();
    const visibility = toolVisibility(config.show_tool_input, config.show_tool_output);
    const sessions = Array.from({ length: 16 }, (_, s) => ({ id: `ses_${300 + s}`, messages: session(300 + s) }));
    const kept = await Promise.all(sessions.map(({ id, messages }) => sessionTerms(id, messages, visibility, DEFAULT_TUNING, () => undefined)));
    let compared = 0;
    let tight = 0;
    for (const query of QUERIES) {
      const parsed = parseQuery(query, DEFAULT_TUNING);
      const holders = kept.map((counted): ProjectedHolder => {
        const termChunks = parsed.terms.map((term) => counted.postings.get(term.token) ?? []);
        return {
          docs: counted.docs,
          length: counted.length,
          df: termChunks.map((list) => list.length / 4),
          ceilings: termChunks.map((list) => termCeiling(list, counted.length / counted.docs, DEFAULT_TUNING)),
          termChunks: () => termChunks,
          table: () => counted.chunks,
        };
      });
      const shared = emptyStats(parsed.terms.length);
      for (const holder of holders) addStats(shared, holder);
      for (const [s, holder] of holders.entries()) {
        if (holder.df.every((df) => df === 0)) continue;
        const { groups } = projectedGroups(sessions[s]!.id, holder.table(), holder.termChunks(), parsed, holder, shared);
        const byId = new Map(sessions[s]!.messages.map((message) => [message.id, message]));
        const boosted: number[] = [];
        for (const group of groups) {
          expect(await resolveGroup(group, async (id) => byId.get(id))).toBe(true);
          boostGroup(group, parsed, textReader(visibility));
          boosted.push(group.score);
        }
        boosted.sort((a, b) => b - a);
        const bounds = holderBounds(holder, parsed, chunkScorers(parsed, shared), 3);
        const ceiling = holderCeiling(holder, parsed, termFactors(parsed, shared)(holder));
        // Both are above rounding by the same margin; made in other orders, they may differ by an ulp.
        expect(ceiling).toBeGreaterThanOrEqual(bounds[0]! * (1 - 1e-12));
        if (boosted.length > 0) expect(ceiling).toBeGreaterThanOrEqual(boosted[0]!);
        for (let i = 0; i < Math.min(3, boosted.length); i++) expect(bounds[i]!).toBeGreaterThanOrEqual(boosted[i]!);
        if (ceiling < 2 * boosted[0]!) tight++;
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(50);
    // Not a bound of nothing: most ceilings are within twice the best message's score.
    expect(tight / compared).toBeGreaterThan(0.5);
  });
});
