import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assistant, toolCall, user } from "../../history/testing/messages.ts";
import { toolVisibility } from "../../history/tool-visibility.ts";
import type { HistoryMessage } from "../../history/types.ts";
import { buildView, type SessionView } from "../../history/view.ts";
import { scanSession } from "../scan/scan.ts";
import type { DocFilter, SearchFilters } from "../types.ts";
import { bestPartScores, messageScore } from "../rank/rank.ts";
import { HIT_TYPES, type HitType } from "../text/documents.ts";
import { parseQuery } from "../text/query.ts";
import { SessionIndex, type IndexHit } from "./session-index.ts";
import { DEFAULT_TUNING } from "../tuning.ts";

const visibility = toolVisibility([], []);
const WORDS = ["deploy", "rollback", "canary", "Deploy", "queue", "x"];
const T0 = Date.UTC(2025, 0, 1);

/** An index of `messages`, its counts grouped after the first `grouped` (the rest read ungrouped). */
function index(messages: readonly HistoryMessage[], grouped = messages.length): SessionIndex {
  const made = new SessionIndex(visibility, DEFAULT_TUNING);
  messages.forEach((message, i) => {
    made.addMessage(message);
    if (i + 1 === grouped) for (const _ of made.groupSteps());
  });
  made.diff(messages);
  return made;
}

const key = (partId: string, start: number) => `${partId}:${start}`;
/** A message's score from its hits, as ranking computes it (each part by its best chunk). */
const scoreOf = (hits: IndexHit[]) => {
  const sorted = [...hits].sort((a, b) => b.score - a.score);
  const scores = bestPartScores(
    sorted.map((hit) => hit.score),
    sorted.map((hit) => hit.meta.partId),
    sorted.map((_, i) => i),
    0,
    sorted.length,
    DEFAULT_TUNING,
  );
  return messageScore(scores, DEFAULT_TUNING);
};
const keys = (hits: IndexHit[]) => hits.map((hit) => key(hit.meta.partId, hit.meta.start)).sort();
const all: SearchFilters = { types: new Set(HIT_TYPES) };

const words = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }).map((list) => list.join(" "));
// A long tool output spans several chunks of one part.
const messageArb = fc
  .tuple(fc.boolean(), words, words, fc.constantFrom("bash", "read"), fc.integer({ min: 0, max: 20 }), fc.constantFrom(1, 1, 300))
  .map(([isUser, a, b, tool, minute, repeat]) =>
    isUser
      ? user(a, { created: T0 + minute * 60_000 })
      : assistant([a, { kind: "reasoning", id: `prt_r${minute}${a.length}`, text: b }, toolCall(tool, { command: b }, "completed", `${a}\n`.repeat(repeat))], {
          created: T0 + minute * 60_000,
        }),
  );
const filtersArb = fc.record(
  {
    types: fc.subarray([...HIT_TYPES]).map((types) => new Set<HitType>(types)),
    role: fc.constantFrom("user" as const, "assistant" as const),
    tool: fc.constantFrom("bash", "read"),
    after: fc.integer({ min: 0, max: 20 }).map((m) => T0 + m * 60_000),
    before: fc.integer({ min: 0, max: 20 }).map((m) => T0 + m * 60_000),
  },
  { requiredKeys: ["types"] },
);

describe("session index search", () => {
  it("returns exactly the documents the filters accept among the messages the view shows as indexed", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(messageArb, { minLength: 1, maxLength: 12 }),
        filtersArb,
        fc.nat(),
        fc.nat(),
        fc.constantFrom("deploy", "canary queue", "rollback"),
        fc.nat(),
        async (messages, filters: SearchFilters, cut, changed, query, grouped) => {
          const made = index(messages, grouped % (messages.length + 1));
          // The view may hide a tail and hold a newer object for one message (not what was indexed).
          const base = buildView("s", messages, false);
          const viewMessages = base.messages.slice();
          const replaced = changed % (viewMessages.length + 1);
          if (replaced < viewMessages.length) viewMessages[replaced] = { ...viewMessages[replaced]! };
          const view: SessionView = { ...base, messages: viewMessages, visibleEnd: cut % (viewMessages.length + 1) };
          const indexedAndShown = view.messages.slice(0, view.visibleEnd).filter((message) => messages.includes(message));
          const accept: DocFilter = (message, type, tool) => {
            const created = message.created!;
            return (
              filters.types.has(type) &&
              (filters.role === undefined || message.role === filters.role) &&
              (filters.tool === undefined || tool === filters.tool) &&
              (filters.after === undefined || created > filters.after) &&
              (filters.before === undefined || created < filters.before)
            );
          };
          const expected = await scanSession(indexedAndShown, visibility, parseQuery(query, DEFAULT_TUNING), accept);
          expect(keys(made.search(parseQuery(query, DEFAULT_TUNING), filters, view))).toEqual(expected!.map((doc) => key(doc.partId, doc.start)).sort());
        },
      ),
      { numRuns: 150 },
    );
  });

  it("returns the documents of the best messages only, keeping those tied at the cut", () => {
    fc.assert(
      fc.property(
        fc.array(messageArb, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom("deploy", "canary queue", "rollback x"),
        (messages, groups, query) => {
          const made = index(messages);
          const view = buildView("s", messages, false);
          const every = made.search(parseQuery(query, DEFAULT_TUNING), all, view);
          const byMessage = new Map<string, IndexHit[]>();
          for (const hit of every) byMessage.set(hit.message.id, [...(byMessage.get(hit.message.id) ?? []), hit]);
          const scores = [...byMessage.values()].map(scoreOf).sort((a, b) => b - a);
          const last = scores[Math.min(groups, scores.length) - 1] ?? 0;
          const kept = new Set([...byMessage].filter(([, hits]) => scoreOf(hits) >= last - 1e-9 * Math.max(1, last)).map(([id]) => id));
          const cut = made.search(parseQuery(query, DEFAULT_TUNING), all, view, groups);
          expect(cut).toEqual(every.filter((hit) => kept.has(hit.message.id)));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("orders hits best first, equal scores in insertion order", () => {
    const longMessage = fc
      .tuple(words, fc.integer({ min: 1, max: 4000 }), fc.integer({ min: 0, max: 20 }))
      .map(([text, repeat, minute]) =>
        assistant([toolCall("bash", { command: "run" }, "completed", `${text}\n`.repeat(repeat))], { created: T0 + minute * 60_000 }),
      );
    fc.assert(
      fc.property(
        fc.array(fc.oneof(messageArb, longMessage), { minLength: 1, maxLength: 12 }),
        fc.constantFrom("deploy", "canary queue", "rollback x"),
        (messages, query) => {
          const hits = index(messages).search(parseQuery(query, DEFAULT_TUNING), all, buildView("s", messages, false));
          // Insertion order: the message's place, its part's, the chunk's start.
          const order = (hit: IndexHit) => [messages.indexOf(hit.message), hit.message.parts.findIndex((part) => part.id === hit.meta.partId), hit.meta.start];
          const before = (a: number[], b: number[]) => a[0]! < b[0]! || (a[0] === b[0] && (a[1]! < b[1]! || (a[1] === b[1] && a[2]! < b[2]!)));
          for (let i = 1; i < hits.length; i++) {
            const [a, b] = [hits[i - 1]!, hits[i]!];
            expect(a.score > b.score || (a.score === b.score && before(order(a), order(b)))).toBe(true);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it("returns every message tied at the cut, however many documents they hold", () => {
    // Ten equal messages tie for the one best place: Orama's limit (one message's documents)
    // holds a tenth of them, so the search is made again for all.
    const messages = Array.from({ length: 10 }, (_, i) => user("deploy the canary", { created: T0 + i }));
    const hits = index(messages).search(parseQuery("deploy", DEFAULT_TUNING), all, buildView("s", messages, false), 1);
    expect(hits.map((hit) => hit.message)).toEqual(messages);
  });

  it("forgets removed and replaced messages", () => {
    const first = user("deploy the canary", { created: T0 });
    const second = assistant(["deploy done"], { created: T0 + 1 });
    const made = index([first, second]);
    const edited = { ...second, parts: [{ kind: "text" as const, id: "prt_edit", text: "rollback done" }] };
    made.addMessage(edited);
    made.removeMessage(first.id);
    const view = buildView("s", [edited], false);
    expect(made.search(parseQuery("deploy", DEFAULT_TUNING), all, view)).toEqual([]);
    expect(made.search(parseQuery("rollback", DEFAULT_TUNING), all, view).map((hit) => hit.message)).toEqual([edited]);
  });
});
