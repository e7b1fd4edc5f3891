// The score bound holds message by message: over generated sessions (long parts cut into several
// chunks, tool calls whose input counts more, compaction summaries, identifiers and numbers), every
// message's score before the boosts, as a many-session search scores it (the cold scan, then
// rescored against the scope's statistics), is at most the session's bound over maxBoost; and the
// bound is met where a session is one chunk of one term, so it is not loose by construction.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../config/schema.ts";
import { assistant, toolCall, user } from "../../history/testing/messages.ts";
import { toolVisibility } from "../../history/tool-visibility.ts";
import type { HistoryMessage, HistoryPart } from "../../history/types.ts";
import { buildView } from "../../history/view.ts";
import { sessionTerms } from "./session-terms.ts";
import { countSession, scoreScan } from "../scan/scan.ts";
import { parseQuery, type ParsedQuery } from "../text/query.ts";
import type { ProjectedTerms } from "../types.ts";
import { addStats, emptyStats, type CollectionStats } from "../rank/bm25.ts";
import { candidateGroups, maxBoost, textReader } from "../rank/rank.ts";
import { rescore } from "../rank/rescore.ts";
import { ScoreBound } from "./score-bound.ts";

const config = defaultConfig();
const visibility = toolVisibility(config.show_tool_input, config.show_tool_output);
const WORDS = ["timezone", "aware", "datetime", "Timezone", "awareness", "fooBar", "the", "run", "tests", "3.6.9", "datetimes", "migration", "squash"];
const QUERIES = ["timezone aware datetime", "the run tests", "fooBar datetime", "run", "awareness the", "migration squash 3.6.9"];

const words = (min: number, max: number) => fc.array(fc.constantFrom(...WORDS), { minLength: min, maxLength: max }).map((list) => list.join(" "));
/** Text of a part: a few words, or now and then long enough to make several chunks. */
const partText = fc.oneof({ weight: 4, arbitrary: words(1, 30) }, { weight: 1, arbitrary: words(20, 40).map((line) => `${line}\n`.repeat(40)) });
const part = fc.oneof(
  partText.map((text): HistoryPart | string => text),
  fc.record({ command: words(1, 5), output: partText }).map(({ command, output }): HistoryPart => toolCall("bash", { command }, "completed", output)),
);
const message = fc.record({ user: fc.boolean(), parts: fc.array(part, { minLength: 1, maxLength: 4 }), summary: fc.boolean() });
const session = fc.array(message, { minLength: 1, maxLength: 6 }).map((list): HistoryMessage[] =>
  list.map((m) => {
    if (m.user) return user(m.parts.filter((p): p is string => typeof p === "string").join(" ") || "the run");
    return assistant(m.parts, m.summary ? { summary: true } : {});
  }),
);

async function projectedOf(messages: HistoryMessage[], parsed: ParsedQuery): Promise<ProjectedTerms> {
  const terms = await sessionTerms("ses_test", messages, visibility);
  return {
    docs: terms.docs,
    length: terms.length,
    df: parsed.terms.map((term) => terms.terms.get(term.token) ?? 0),
    reach: parsed.terms.map((term) => terms.reach.get(term.token) ?? 0),
  };
}

/** Each message's score before the boosts, as a many-session search gives it against `shared`, and the session's own statistics. */
async function messageScores(messages: HistoryMessage[], parsed: ParsedQuery, shared?: CollectionStats): Promise<{ own: CollectionStats; scores: number[] }> {
  const view = buildView("ses_test", messages, false);
  const counts = (await countSession(view.messages.slice(0, view.visibleEnd), visibility, parsed.terms, () => true))!;
  const own = emptyStats(parsed.terms.length);
  const docs = scoreScan(counts, { stats: own });
  if (!shared) return { own, scores: [] };
  rescore(docs, parsed, shared, own, textReader(visibility));
  return { own, scores: candidateGroups(docs).map((group) => group.score) };
}

describe("score bound", () => {
  it("bounds every message's score in every session of a scope", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(session, { minLength: 1, maxLength: 4 }), fc.constantFrom(...QUERIES), async (sessions, query) => {
        const parsed = parseQuery(query);
        const projected = await Promise.all(sessions.map((messages) => projectedOf(messages, parsed)));
        const shared = emptyStats(parsed.terms.length);
        for (const one of projected) addStats(shared, one);
        const bound = new ScoreBound(parsed, shared);
        for (const [s, messages] of sessions.entries()) {
          const { own, scores } = await messageScores(messages, parsed, shared);
          // The projection counts the session as its scan does (the cut checks this of every session it reads).
          expect({ docs: own.docs, length: own.length, df: own.df }).toEqual({ docs: projected[s]!.docs, length: projected[s]!.length, df: projected[s]!.df });
          const most = bound.of(projected[s]!) / maxBoost(parsed, 0);
          for (const score of scores) expect(score).toBeLessThanOrEqual(most * (1 + 1e-12));
        }
      }),
      { numRuns: 150 },
    );
  });

  it("is met by a session of one chunk holding one query word", async () => {
    const parsed = parseQuery("squash");
    const messages = [assistant(["we squash the migrations"])];
    const other = [user("nothing of it here at all")];
    const projected = [await projectedOf(messages, parsed), await projectedOf(other, parsed)];
    const shared = emptyStats(parsed.terms.length);
    for (const one of projected) addStats(shared, one);
    const { scores } = await messageScores(messages, parsed, shared);
    const most = new ScoreBound(parsed, shared).of(projected[0]!) / maxBoost(parsed, 0);
    expect(scores).toHaveLength(1);
    // Rounded up to 1/4096 of the term's reach, no more.
    expect(most).toBeGreaterThanOrEqual(scores[0]!);
    expect(most).toBeLessThan(scores[0]! * (1 + 1 / 2048));
  });
});
