import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nextId } from "../../history/testing/messages.ts";
import type { HistoryMessage, HistoryPart, SessionInfo } from "../../history/types.ts";
import type { ScoredDoc } from "../types.ts";
import { countTerms, termFinders } from "../scan/scan.ts";
import { parseQuery, type ParsedQuery } from "../text/query.ts";
import { Candidates, topAcross } from "./candidates.ts";
import { rankSessions } from "./rank-sessions.ts";
import { boostGroup, candidateGroups, compareResults, maxBoost, type Group } from "./rank.ts";
import { DEFAULT_TUNING } from "../tuning.ts";

// Words that bring every boost into play: a command (intent), a path (compound), and plain words
// that get none.
const WORDS = [
  "rate",
  "limiter",
  "token",
  "bucket",
  "refund",
  "why",
  "because",
  "run",
  "ran",
  "pytest",
  "the",
  "failed",
  "src/app.ts",
  "so",
  "changed",
  "fixed",
];
const words = (min: number, max: number) => fc.array(fc.constantFrom(...WORDS), { minLength: min, maxLength: max }).map((list) => list.join(" "));

interface Chunk {
  tool: boolean;
  input: string;
  body: string;
  score: number;
}
const chunk = fc.record({ tool: fc.boolean(), input: words(1, 4), body: words(0, 30), score: fc.double({ min: 0.01, max: 10, noNaN: true }) });
const message = fc.record({ chunks: fc.array(chunk, { minLength: 1, maxLength: 4 }), created: fc.integer({ min: 0, max: 20 }) });
const session = fc.record({ messages: fc.array(message, { minLength: 1, maxLength: 20 }), title: words(0, 3), updated: fc.integer({ min: 0, max: 3 }) });

type Made = Array<{ info: SessionInfo; docs: () => ScoredDoc[] }>;

/** Sessions of scored chunks; `docs()` makes fresh ones (the boosts change their scores). */
function make(sessions: Array<{ messages: Array<{ chunks: Chunk[]; created: number }>; title: string; updated: number }>): Made {
  return sessions.map((shape, s) => {
    const info: SessionInfo = { id: `ses_${s}`, title: shape.title, created: 0, updated: shape.updated };
    const messages = shape.messages.map(({ chunks, created }) => {
      const parts: HistoryPart[] = chunks.map((c) =>
        c.tool
          ? { kind: "tool", id: nextId("prt"), callId: nextId("call"), tool: "bash", status: "completed", input: { command: c.input }, output: c.body }
          : { kind: "text", id: nextId("prt"), text: c.body },
      );
      const msg: HistoryMessage = { id: nextId("msg"), sessionId: info.id, role: "assistant", created, parts };
      return { msg, chunks };
    });
    const docs = () =>
      messages.flatMap(({ msg, chunks }) =>
        chunks.map((c, i): ScoredDoc => {
          const text = c.tool ? `${c.input}\n${c.body}` : c.body;
          const doc: ScoredDoc = { message: msg, partId: msg.parts[i]!.id, type: c.tool ? "tool" : "text", start: 0, end: text.length, score: c.score, text };
          if (c.tool) Object.assign(doc, { tool: "bash", input: c.input.length });
          return doc;
        }),
      );
    return { info, docs };
  });
}

const textOf = (doc: ScoredDoc) => doc.text!;
const hitOptions = { maxHits: 2, maxSnippets: 1, snippetChars: 80, marks: () => [] };

/** Each chunk's query term counts, as the scan counts them: the boosts' ceilings read them (groupBoostMost). */
function counted(docs: ScoredDoc[], parsed: ParsedQuery): ScoredDoc[] {
  const finders = termFinders(parsed.terms);
  for (const doc of docs) doc.tfs = countTerms(doc.text!, finders, undefined) ?? parsed.terms.map(() => 0);
  return docs;
}

function candidates(made: Made, parsed: ParsedQuery): Map<string, Candidates> {
  return new Map(made.map(({ info, docs }) => [info.id, new Candidates(candidateGroups(counted(docs(), parsed), DEFAULT_TUNING), parsed, textOf, hitOptions)]));
}

/** Every candidate of the session boosted, best first: the ranking the lazy one must equal. */
function rankedWhole(docs: ScoredDoc[], parsed: ParsedQuery): Group[] {
  const groups = candidateGroups(docs, DEFAULT_TUNING);
  for (const group of groups) boostGroup(group, parsed, textOf);
  return groups.sort(compareResults);
}

const query = words(1, 5).filter((q) => parseQuery(q, DEFAULT_TUNING).terms.length > 0);

describe("candidates ranked lazily", () => {
  it("a boost never raises a message past its bound", () => {
    fc.assert(
      fc.property(session, query, (shape, q) => {
        const parsed = parseQuery(q, DEFAULT_TUNING);
        const groups = candidateGroups(make([shape])[0]!.docs(), DEFAULT_TUNING);
        groups.forEach((group) => {
          const before = group.score;
          boostGroup(group, parsed, textOf);
          expect(group.score).toBeLessThanOrEqual(before * maxBoost(parsed) * (1 + 1e-12));
        });
      }),
      { numRuns: 300 },
    );
  });

  it("the first k over sessions are those of ranking every session whole", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(session, { minLength: 1, maxLength: 6 }), query, fc.integer({ min: 1, max: 12 }), async (shapes, q, limit) => {
        const parsed = parseQuery(q, DEFAULT_TUNING);
        const made = make(shapes);
        const whole = made
          .flatMap(({ docs }) => rankedWhole(docs(), parsed).slice(0, limit))
          .sort(compareResults)
          .slice(0, limit);
        const lazy = await topAcross(candidates(made, parsed), limit);
        expect(lazy.map(({ group }) => [group.message.id, group.score])).toEqual(whole.map((group) => [group.message.id, group.score]));
      }),
      { numRuns: 300 },
    );
  });

  it("reads a message only to boost it or return it, and drops one gone from the store", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(session, fc.array(fc.boolean(), { maxLength: 20 })), { minLength: 1, maxLength: 6 }),
        query,
        fc.integer({ min: 1, max: 12 }),
        async (shaped, q, limit) => {
          const parsed = parseQuery(q, DEFAULT_TUNING);
          const made = make(shaped.map(([shape]) => shape));
          // Messages ranked from their counts alone hold no parts until read; `gone` ones are not found.
          const gone = new Set<string>();
          made.forEach(({ docs }, s) => {
            const ids = [...new Set(docs().map((doc) => doc.message.id))];
            ids.forEach((id, m) => {
              if (shaped[s]![1][m]) gone.add(id);
            });
          });
          const whole = made
            // Ranked as the projection ranked them (gone ones in), then gone ones left out.
            .flatMap(({ docs }) =>
              rankedWhole(docs(), parsed)
                .filter((group) => !gone.has(group.message.id))
                .slice(0, limit),
            )
            .sort(compareResults)
            .slice(0, limit);
          let reads = 0;
          const lazy = new Map(
            made.map(({ info, docs }) => {
              const groups = candidateGroups(counted(docs(), parsed), DEFAULT_TUNING);
              const real = new Map(groups.map((group) => [group, group.message]));
              for (const group of groups) {
                group.message = { ...group.message, parts: [] };
                for (const doc of group.docs) doc.message = group.message;
              }
              const unreadText = (doc: ScoredDoc) => {
                if (doc.message.parts.length === 0) throw new Error("a boost read an unread message");
                return doc.text!;
              };
              const resolve = async (group: Group) => {
                reads++;
                if (gone.has(group.message.id)) return false;
                group.message = real.get(group)!;
                for (const doc of group.docs) doc.message = group.message;
                return true;
              };
              return [info.id, new Candidates(groups, parsed, unreadText, hitOptions, resolve)] as const;
            }),
          );
          const ranked = await topAcross(lazy, limit);
          expect(ranked.map(({ group }) => [group.message.id, group.score])).toEqual(whole.map((group) => [group.message.id, group.score]));
          for (const { group } of ranked) expect(group.message.parts.length).toBeGreaterThan(0);
          expect(reads).toBeLessThanOrEqual(made.reduce((sum, { docs }) => sum + new Set(docs().map((doc) => doc.message.id)).size, 0));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("pages are slices of one ranking: the first k of a deeper ranking are the first k", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(session, { minLength: 1, maxLength: 6 }),
        query,
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 12 }),
        async (shapes, q, k, more) => {
          const parsed = parseQuery(q, DEFAULT_TUNING);
          const made = make(shapes);
          const shallow = await topAcross(candidates(made, parsed), k);
          const deep = await topAcross(candidates(made, parsed), k + more);
          expect(deep.slice(0, k).map(({ group }) => [group.message.id, group.score])).toEqual(shallow.map(({ group }) => [group.message.id, group.score]));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("the first k over sessions are the same when an earlier ranking boosted some candidates", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(session, fc.integer({ min: 0, max: 5 })), { minLength: 1, maxLength: 6 }),
        query,
        fc.integer({ min: 1, max: 12 }),
        async (shaped, q, limit) => {
          const parsed = parseQuery(q, DEFAULT_TUNING);
          const made = make(shaped.map(([shape]) => shape));
          const fresh = await topAcross(candidates(made, parsed), limit);
          const earlier = candidates(made, parsed);
          for (const [s, found] of [...earlier.values()].entries()) for (let i = 0; i < shaped[s]![1]; i++) await found.next();
          const again = await topAcross(earlier, limit);
          expect(again.map(({ group }) => [group.message.id, group.score])).toEqual(fresh.map(({ group }) => [group.message.id, group.score]));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("history_sessions ranks sessions as from every session's three best messages", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(session, { minLength: 1, maxLength: 6 }), query, fc.integer({ min: 1, max: 4 }), async (shapes, q, limit) => {
        const parsed = parseQuery(q, DEFAULT_TUNING);
        const made = make(shapes);
        const lazy = await rankSessions(
          made.map(({ info }) => info),
          candidates(made, parsed),
          parsed,
          limit,
        );
        // Reference: each session's three best messages after every boost (rank-sessions.ts's formula).
        const { titleCoverage } = await import("./rank-sessions.ts");
        const tops = made.map(({ docs }) => rankedWhole(docs(), parsed).slice(0, 3));
        const bestContent = Math.max(0, ...tops.map((top) => top[0]?.score ?? 0));
        const whole = made
          .map(({ info }, s) => {
            const content = tops[s]!.reduce((sum, group, i) => sum + group.score * [1, 0.3, 0.15][i]!, 0);
            const title = titleCoverage(info.title, parsed);
            return { id: info.id, updated: info.updated ?? 0, content, title, score: content * (1 + 0.5 * title) + title * 0.25 * (bestContent || 1) };
          })
          .filter((entry) => entry.content > 0 || entry.title > 0)
          .sort((a, b) => b.score - a.score || b.updated - a.updated)
          .slice(0, limit);
        expect(lazy.map((entry) => entry.session.id)).toEqual(whole.map((entry) => entry.id));
        for (const [i, entry] of lazy.entries()) expect(entry.score).toBeCloseTo(whole[i]!.score, 9);
      }),
      { numRuns: 300 },
    );
  });
});
