import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assistant, textMessage, toolCall, user } from "../history/testing/messages.ts";
import type { SearchRequest } from "./types.ts";
import { MemorySource } from "../store/testing/memory-source.ts";
import { formatSearchAnswer } from "./answer.ts";
import { FILLER_WORDS } from "./testing/filler.ts";
import { testService } from "./testing/service.ts";
import { addSession } from "./testing/sessions.ts";
import { TermTable } from "./index/components/term-table.ts";
import { parseQuery } from "./text/query.ts";
import {
  bestNearest,
  boundedDistance,
  correctionDistance,
  correctQuery,
  isLetterOrNumberAt,
  isNearer,
  maxEdits,
  rewriteQuery,
  nearestTerms,
  termListVocabulary,
  unmatchedWords,
} from "./text/typos.ts";
import { DEFAULT_TUNING } from "./tuning.ts";

const T0 = Date.UTC(2025, 0, 1);

/** boundedDistance of two strings. */
function editDistance(a: string, b: string, max: number): number {
  const codes = Uint16Array.from(b, (c) => c.charCodeAt(0));
  return boundedDistance(a, codes, 0, b.length, max);
}

describe("typo corrections", () => {
  it("measure edits with swaps of neighbours, and allow more for longer words", () => {
    expect(editDistance("foriegn", "foreign", 2)).toBe(1);
    expect(editDistance("histgram", "histogram", 2)).toBe(1);
    expect(editDistance("cat", "dog", 1)).toBe(2);
    expect([maxEdits(3), maxEdits(5), maxEdits(9)]).toEqual([0, 1, 2]);
    expect(rewriteQuery("Step Histgram cut", new Map([["histgram", "histogram"]]))).toBe("Step histogram cut");
  });

  it("replace a word only where no letter or number of any script touches it", () => {
    expect(rewriteQuery("histgram2 histgram", new Map([["histgram", "histogram"]]))).toBe("histgram2 histogram");
    expect(rewriteQuery("éhistgram histgram½ (histgram)", new Map([["histgram", "histogram"]]))).toBe("éhistgram histgram½ (histogram)");
    // Every UTF-16 code unit is told apart as \p{L} and \p{N} tell it (ASCII by its code).
    const pattern = /[\p{L}\p{N}]/u;
    const wrong: number[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const ch = String.fromCharCode(code);
      if (isLetterOrNumberAt(`-${ch}`, 1) !== pattern.test(ch)) wrong.push(code);
    }
    expect(wrong).toEqual([]);
    expect([isLetterOrNumberAt("a", -1), isLetterOrNumberAt("a", 1)]).toEqual([false, false]);
  });

  it("search a word found nowhere as its nearest indexed term once the index is built, and say so", async () => {
    const source = new MemorySource();
    const messages = [
      textMessage("s1", "user", "The step histogram is cut off at the top.", T0),
      textMessage("s1", "assistant", "The y limits ignore the path simplification.", T0 + 1000),
      textMessage("s1", "user", "Please check the README for setup steps.", T0 + 2000),
    ];
    source.add({ id: "s1", title: "t", created: T0, updated: T0 }, messages);
    const service = testService(source);
    await service.buildIndex("s1");
    {
      const answer = await service.search({ query: "histgram simplifcation", callerSessionId: "other", sessionId: "s1", scope: "session", types: ["text"] });
      expect(
        answer.results
          .map((r) => r.message.id)
          .slice(0, 2)
          .sort(),
      ).toEqual([messages[0]!.id, messages[1]!.id].sort());
      expect(formatSearchAnswer(answer, "").searched_instead).toEqual({ histgram: "histogram", simplifcation: "simplification" });
    }
  });

  it("leave words that match, short words and numbers alone", async () => {
    const source = new MemorySource();
    source.add({ id: "s1", title: "t", created: T0, updated: T0 }, [textMessage("s1", "user", "The cat sat on version 3 of the mat.", T0)]);
    const answer = await testService(source).search({ query: "cat dog 4 mats", callerSessionId: "other", sessionId: "s1", scope: "session", types: ["text"] });
    expect(answer.corrections).toBeUndefined();
  });

  it("measure packed terms exactly as the textbook distance does, capped at max + 1", () => {
    // Optimal string alignment, the plain full-table way.
    const reference = (a: string, b: string): number => {
      const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
      for (let i = 1; i <= a.length; i++)
        for (let j = 1; j <= b.length; j++) {
          d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
          if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
        }
      return d[a.length]![b.length]!;
    };
    const word = fc.string({ unit: fc.constantFrom("a", "b", "c", "d"), maxLength: 12 });
    fc.assert(
      fc.property(word, word, word, fc.integer({ min: 0, max: 3 }), (a, b, pad, max) => {
        // b sits inside a larger packed array, as terms do in the term table.
        const packed = Uint16Array.from(pad + b + pad, (c) => c.charCodeAt(0));
        const expected = Math.min(reference(a, b), max + 1);
        expect(boundedDistance(a, packed, pad.length, b.length, max)).toBe(expected);
        expect(editDistance(a, b, max)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it("visit every all-letter term of the window in id order, as terms keep being added between lookups", () => {
    const term = fc.string({ unit: fc.constantFrom("a", "b", "z", "1", "_"), minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(term, { maxLength: 20 }), fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 6 }),
        (batches) => {
          const table = new TermTable();
          const added: string[] = [];
          for (const [terms, min, width] of batches) {
            for (const t of terms) {
              if (table.find(t, 0, t.length) >= 0) continue;
              table.intern(t, 0, t.length);
              added.push(t);
            }
            const seen: number[] = [];
            table.forEachLetterTerm(min, min + width, (_chars, _start, _length, id) => seen.push(id));
            const expected = added.flatMap((t, id) => (/^[a-z]+$/.test(t) && t.length >= min && t.length <= min + width ? [id] : []));
            expect(seen).toEqual(expected);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("visit exactly the all-letter terms within the length window", () => {
    const table = new TermTable();
    const terms = ["histogram", "histgram", "x2", "abc", "abcdefghij", "under_score", "ok"];
    for (const term of terms) table.intern(term, 0, term.length);
    const seen: string[] = [];
    table.forEachLetterTerm(3, 9, (chars, start, length) => seen.push(String.fromCharCode(...chars.subarray(start, start + length))));
    expect(seen).toEqual(["histogram", "histgram", "abc"]);
  });

  it("weigh a corrected word below the words typed, its other forms with it, and in a path only the word", () => {
    const typed = parseQuery("histogram cutting off", DEFAULT_TUNING);
    const { text, parsed } = correctQuery("histgram cutting off", new Map([["histgram", "histogram"]]), DEFAULT_TUNING);
    expect(text).toBe("histogram cutting off");
    const weight = (p: typeof parsed, token: string) => p.terms.find((t) => t.token === token)?.weight;
    expect(weight(parsed, "histogram")).toBe(weight(typed, "histogram")! * DEFAULT_TUNING.typos.weight);
    expect(weight(parsed, "cutting")).toBe(weight(typed, "cutting"));
    const path = correctQuery("src/hist_colect.py", new Map([["colect", "collect"]]), DEFAULT_TUNING).parsed;
    const typedPath = parseQuery("src/hist_collect.py", DEFAULT_TUNING);
    expect(weight(path, "collect")).toBe(weight(typedPath, "collect")! * DEFAULT_TUNING.typos.weight);
    expect(weight(path, "hist")).toBe(weight(typedPath, "hist"));
  });

  it("pick among sessions' nearest terms the fewest edits away, then the one in most documents, then the first in code-unit order", () => {
    expect(
      bestNearest([
        { term: "cast", distance: 1, df: 9 },
        { term: "case", distance: 1, df: 5 },
        { term: "case", distance: 1, df: 6 },
      ]),
    ).toBe("case");
    expect(
      bestNearest([
        { term: "castle", distance: 2, df: 50 },
        { term: "cast", distance: 1, df: 1 },
      ]),
    ).toBe("cast");
    expect(
      bestNearest([
        { term: "cast", distance: 1, df: 3 },
        { term: "case", distance: 1, df: 3 },
      ]),
    ).toBe("case");
    expect(
      bestNearest([
        { term: "case", distance: 1, df: 3 },
        { term: "cast", distance: 1, df: 3 },
      ]),
    ).toBe("case");
    expect(bestNearest([])).toBeUndefined();
  });

  it("leave alone a word typed again in the query, only its other forms left to it", async () => {
    // `local` is a term of the identifier before it: the second `local` keeps only its other forms.
    const parsed = parseQuery("UnboundLocalError local", DEFAULT_TUNING);
    expect(
      unmatchedWords(
        parsed,
        parsed.terms.map(() => 0),
      ),
    ).toEqual(["unboundlocalerror"]);
    const source = new MemorySource();
    source.add({ id: "s1", title: "t", created: T0, updated: T0 }, [textMessage("s1", "assistant", "UnboundLocalError raised in the loop.", T0)]);
    const answer = await testService(source).search({
      query: "UnboundLocalError local",
      callerSessionId: "other",
      sessionId: "s1",
      scope: "session",
      types: ["text"],
    });
    expect(answer.corrections).toBeUndefined();
  });

  it("correct a word only to terms with its first letter", () => {
    const codes = (term: string) => Uint16Array.from(term, (c) => c.charCodeAt(0));
    expect(correctionDistance("unit", codes("init"), 0, 4, 1)).toBe(2);
    expect(correctionDistance("hand", codes("and"), 0, 3, 1)).toBe(2);
    expect(correctionDistance("histgram", codes("histogram"), 0, 9, 2)).toBe(1);
    expect(correctionDistance("fals", codes("false"), 0, 5, 1)).toBe(1);
  });

  it("choose from a vocabulary what every term measured in full chooses, whatever their order", () => {
    // The oracle: every term's full distance, filtered by the rules, its documents summed, the
    // best by isNearer; no term left out for its distance, no term text spared.
    const oracle = (word: string, terms: ReadonlyArray<{ term: string; df: number }>) => {
      const max = maxEdits(word.length);
      const df = new Map<string, number>();
      for (const one of terms) df.set(one.term, (df.get(one.term) ?? 0) + one.df);
      let best: { term: string; distance: number; df: number } | undefined;
      for (const [term, documents] of df) {
        const distance = editDistance(word, term, max);
        if (!/^[a-z]+$/.test(term) || term[0] !== word[0] || distance === 0 || distance > max || documents === 0) continue;
        if (isNearer({ term, distance, df: documents }, best)) best = { term, distance, df: documents };
      }
      return best?.term;
    };
    const text = fc.string({ unit: fc.constantFrom("a", "b", "c", "B", "1"), minLength: 1, maxLength: 10 });
    fc.assert(
      fc.property(text, fc.array(fc.record({ term: text, df: fc.integer({ min: 0, max: 4 }) }), { maxLength: 30 }), (word, terms) => {
        const vocabulary = termListVocabulary(
          terms.map((one) => one.term),
          (key) => terms[key]!.df,
        );
        expect(bestNearest(nearestTerms(vocabulary, [word]).get(word) ?? [])).toBe(oracle(word, terms));
      }),
      { numRuns: 2000 },
    );
  });

  it("leave a real word that no document holds alone rather than search a word one edit away at its start", async () => {
    const source = new MemorySource();
    const messages = [
      textMessage("s1", "user", "Ran the tests of the init module again.", T0),
      textMessage("s1", "assistant", "The pylint tests passed at the end.", T0 + 1000),
    ];
    source.add({ id: "s1", title: "t", created: T0, updated: T0 }, messages);
    const service = testService(source);
    await service.buildIndex("s1");
    const answer = await service.search({ query: "which pylint unit tests ran", callerSessionId: "other", sessionId: "s1", scope: "session", types: ["text"] });
    expect(answer.corrections).toBeUndefined();
    expect(answer.results[0]?.message.id).toBe(messages[1]!.id);
  });
});

describe("typo corrections in project scope", () => {
  async function project(sessions: Record<string, string[]>) {
    const source = new MemorySource();
    const ids: Record<string, string[]> = {};
    for (const [id, texts] of Object.entries(sessions)) {
      ids[id] = addSession(source, id, texts, { title: id }).map((m) => m.id);
    }
    const service = testService(source);
    for (const id of Object.keys(sessions)) await service.buildIndex(id);
    const search = (query: string) => service.search({ query, callerSessionId: "caller", scope: "project", types: ["text"] });
    return { ids, search };
  }

  it("search a word found in no session as the nearest term any session holds, and say so", async () => {
    const { ids, search } = await project({
      a: ["The step histogram is cut off at the top.", "Raising the y limit fixed it."],
      b: ["Please check the README for setup steps.", "Done, the setup works."],
    });
    const answer = await search("histgram cut");
    expect(answer.results[0]?.message.id).toBe(ids.a![0]);
    expect(answer.results[0]?.sessionId).toBe("a");
    expect(formatSearchAnswer(answer, "").searched_instead).toEqual({ histgram: "histogram" });
  });

  it("never replace a word some session holds, though another session holds a near term", async () => {
    const { ids, search } = await project({
      a: ["Why did the foreign keys lose their collation?", "The migration dropped it."],
      b: ["Please close the issue once the migration passes.", "Closed."],
    });
    const answer = await search("lose collation");
    expect(answer.corrections).toBeUndefined();
    expect(answer.results[0]?.message.id).toBe(ids.a![0]);
    expect(answer.results.some((r) => r.message.id === ids.b![0])).toBe(false);
  });

  it("rank a message holding a word as typed above one holding only a corrected word", async () => {
    // At equal weights the shorter message would win (each term is in one document).
    const { ids, search } = await project({
      a: ["Then the parser failed on the last line again.", "Nothing else."],
      b: ["Histogram failed.", "Fine."],
    });
    const answer = await search("parser histgram");
    expect(answer.corrections).toEqual(new Map([["histgram", "histogram"]]));
    expect(answer.results.map((r) => r.message.id).slice(0, 2)).toEqual([ids.a![0], ids.b![0]]);
  });
});

describe("typo corrections cold and warm", () => {
  /** The same request answered cold (a fresh service: every session scanned) and warm (every session indexed first). */
  async function bothPaths(source: MemorySource, request: SearchRequest) {
    const answer = async (warm: boolean) => {
      const service = testService(source);
      if (warm) for (const id of source.sessions.keys()) await service.buildIndex(id);
      const { results, corrections } = await service.search(request);
      return { ids: results.map((r) => `${r.message.id} ${r.score.toFixed(9)}`), corrections: corrections && [...corrections] };
    };
    return { cold: await answer(false), warm: await answer(true) };
  }

  const WORDS = [
    "histogram",
    "history",
    "histograms",
    "simplification",
    "patterns",
    "pattern",
    "collect",
    "collected",
    "init",
    "unit",
    "limit",
    "limits",
    "ylim",
    "stepHistogram",
    "path_simplify",
    "3.6.9",
    "cut",
  ];
  const text = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }).map((words) => words.join(" "));
  const message = fc
    .tuple(fc.boolean(), text, text)
    .map(([isUser, a, b]) => (isUser ? user(a) : assistant([a, toolCall("bash", { command: `grep ${b}` }, "completed", `${b}\n${a}\n`)])));
  // A query word with one or two edits (or none): deleted, doubled or swapped letters.
  const typo = fc
    .tuple(fc.constantFrom(...WORDS.filter((w) => /^[a-z]+$/.test(w))), fc.nat(), fc.constantFrom("drop", "double", "swap", "none"))
    .map(([word, at, edit]) => {
      const k = 1 + (at % (word.length - 2));
      if (edit === "drop") return word.slice(0, k) + word.slice(k + 1);
      if (edit === "double") return word.slice(0, k) + word[k] + word.slice(k);
      if (edit === "swap") return word.slice(0, k) + word[k + 1] + word[k] + word.slice(k + 2);
      return word;
    });
  const query = fc.array(typo, { minLength: 1, maxLength: 3 }).map((words) => words.join(" "));

  it("rank alike and report the same substitutions in one session", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(message, { minLength: 1, maxLength: 8 }), query, async (messages, q) => {
        const source = new MemorySource();
        source.add(
          { id: "s1", title: "t", created: T0, updated: T0 },
          messages.map((m) => ({ ...m, sessionId: "s1" })),
        );
        const { cold, warm } = await bothPaths(source, { query: q, callerSessionId: "other", sessionId: "s1", scope: "session", types: ["text", "tool"] });
        expect(cold).toEqual(warm);
      }),
      { numRuns: 60 },
    );
  });

  it("rank alike and report the same substitutions over a project", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(message, { minLength: 1, maxLength: 5 }), fc.array(message, { minLength: 1, maxLength: 5 }), query, async (a, b, q) => {
        const source = new MemorySource();
        source.add(
          { id: "a", title: "a", created: T0, updated: T0 },
          a.map((m) => ({ ...m, sessionId: "a" })),
        );
        source.add(
          { id: "b", title: "b", created: T0, updated: T0 + 1 },
          b.map((m) => ({ ...m, sessionId: "b" })),
        );
        const { cold, warm } = await bothPaths(source, { query: q, callerSessionId: "other", scope: "project", types: ["text", "tool"] });
        expect(cold).toEqual(warm);
      }),
      { numRuns: 40 },
    );
  });

  it("scan again with the corrected query rather than wait for the build the first scan started", async () => {
    const source = new MemorySource();
    const filler = FILLER_WORDS.repeat(8);
    const texts = Array.from({ length: 2000 }, (_, i) => `${filler} step${i}`);
    const messages = addSession(source, "s1", [...texts, textMessage("s1", "assistant", "The step histogram is cut off at the top.", T0 + 3_000_000)], {
      title: "t",
    });
    const service = testService(source);
    const answer = await service.search({ query: "histgram cut", callerSessionId: "other", sessionId: "s1", scope: "session", types: ["text"] });
    expect(answer.corrections).toEqual(new Map([["histgram", "histogram"]]));
    expect(answer.results[0]?.message.id).toBe(messages[messages.length - 1]!.id);
    // The build goes on in the background, after the answer.
    const entry = service.cache.get(service.cache.keys().find((key) => key.startsWith("s1\u0000"))!)!;
    expect(entry.built).toBe(false);
  });

  it("offer no term that only removed messages held", async () => {
    const source = new MemorySource();
    const kept = [
      textMessage("s1", "user", "The step limit is wrong.", T0),
      textMessage("s1", "assistant", "Raised the limit.", T0 + 1000),
      textMessage("s1", "user", "Thanks.", T0 + 2000),
    ];
    const removed = textMessage("s1", "assistant", "The histogram is cut off.", T0 + 3000);
    source.add({ id: "s1", title: "t", created: T0, updated: T0 }, [...kept, removed]);
    const service = testService(source);
    await service.buildIndex("s1");
    source.add({ id: "s1", title: "t", created: T0, updated: T0 }, kept);
    await service.buildIndex("s1");
    const request: SearchRequest = { query: "histgram limit", callerSessionId: "other", sessionId: "s1", scope: "session", types: ["text"] };
    expect((await service.search(request)).corrections).toBeUndefined();
    expect((await testService(source).search(request)).corrections).toBeUndefined();
  });
});
