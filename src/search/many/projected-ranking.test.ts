// Candidates ranked from what the projection keeps equal the engine's after a full read: every
// matching message, with the same score before the boosts, in the same order, over sessions
// scored against the scope's shared statistics; with filters, a user question (others'
// messages weighed down), a plain question (tool chunks weighed down) and a summary.
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../config/schema.ts";
import { reasoningPart, textMessage, toolPart } from "../../history/testing/messages.ts";
import { toolVisibility } from "../../history/tool-visibility.ts";
import type { HistoryMessage } from "../../history/types.ts";
import { buildView } from "../../history/view.ts";
import { seededRandom } from "../../util/testing/seeded-random.ts";
import { addStats, type CollectionStats, emptyStats } from "../rank/bm25.ts";
import { toolChunkWeight } from "../rank/plain-question.ts";
import { candidateGroups, textReader } from "../rank/rank.ts";
import { rescore } from "../rank/rescore.ts";
import { countSession, scoreScan } from "../scan/scan.ts";
import { parseQuery } from "../text/query.ts";
import type { DocFilter } from "../types.ts";
import { projectedGroups } from "./projected-ranking.ts";
import { sessionTerms } from "./session-terms.ts";

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
  it("asks a plain question and a user question among its queries", () => {
    expect(QUERIES.some((query) => toolChunkWeight(parseQuery(query)) !== 1)).toBe(true);
    expect(QUERIES.some((query) => parseQuery(query).user === true)).toBe(true);
  });

  for (const seed of [1, 2]) {
    it(`seed ${seed}: every candidate's score before the boosts equals a full read's`, async () => {
      const config = defaultConfig();
      const visibility = toolVisibility(config.show_tool_input, config.show_tool_output);
      const sessions = Array.from({ length: 8 }, (_, s) => ({ id: `ses_${seed * 100 + s}`, messages: session(seed * 100 + s) }));
      const kept = await Promise.all(sessions.map(({ id, messages }) => sessionTerms(id, messages, visibility, () => undefined)));
      let compared = 0;
      for (const query of QUERIES) {
        const parsed = parseQuery(query);
        for (const [, accept] of FILTERS) {
          // The full read: each session scanned, its documents rescored against the scope's statistics.
          const scans = await Promise.all(
            sessions.map(async ({ id, messages }) => {
              const view = buildView(id, messages, false);
              const counts = await countSession(view.messages.slice(0, view.visibleEnd), visibility, parsed.terms, accept);
              const stats = emptyStats(parsed.terms.length);
              return { docs: scoreScan(counts!, { stats }), stats };
            }),
          );
          const shared = emptyStats(parsed.terms.length);
          for (const { stats } of scans) addStats(shared, stats);
          sessions.forEach(({ id }, s) => {
            const { docs, stats } = scans[s]!;
            rescore(docs, parsed, shared, stats, textReader(visibility));
            const read = candidateGroups(docs, parsed).map((group) => [group.message.id, group.score]);
            const own: CollectionStats = { docs: kept[s]!.docs, length: kept[s]!.length, df: parsed.terms.map((term) => kept[s]!.terms.get(term.token) ?? 0) };
            expect(own).toEqual(stats);
            const termChunks = parsed.terms.map((term) => kept[s]!.postings.get(term.token) ?? []);
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
