import { describe, expect, it, vi } from "vitest";
import fc from "fast-check";
import { fold } from "./normalize.ts";
import { Phrase, countTerm, hasPhrase, parseQuery } from "./query.ts";
import { keywordMarks } from "./snippets.ts";
import { tokenize } from "./tokenize.ts";
import { DEFAULT_TUNING } from "../tuning.ts";

function count(text: string, term: string): number {
  const first = parseQuery(term, DEFAULT_TUNING).terms[0]!;
  expect(first.token).toBe(fold(term));
  return countTerm(text, fold(text), first);
}

describe("parseQuery", () => {
  it("groups terms by query word and builds a phrase", () => {
    const parsed = parseQuery("line item totals", DEFAULT_TUNING);
    expect(parsed.terms.filter((t) => t.weight === 1).map((t) => t.token)).toEqual(["line", "item", "totals"]);
    expect(parsed.groups).toBe(3);
    expect(parsed.phrase?.folded().test(fold("computeLineItemTotals"))).toBe(true);
    expect(parsed.phrase?.folded().test("line totals item")).toBe(false);
  });

  it("uses bigrams for multi-character CJK and the character alone for one", () => {
    expect(parseQuery("耳机", DEFAULT_TUNING).terms.map((t) => t.token)).toEqual(["耳机"]);
    expect(parseQuery("形態素解析", DEFAULT_TUNING).terms.map((t) => t.token)).toEqual(["形態", "態素", "素解", "解析"]);
    expect(parseQuery("猫", DEFAULT_TUNING).terms.map((t) => t.token)).toEqual(["猫"]);
  });

  it("reads a German or Portuguese query's function words as glue", () => {
    const german = parseQuery("Welche Leitlinie soll ich mir für künftige Probleme merken?", DEFAULT_TUNING);
    const tokens = german.terms.map((t) => t.token);
    for (const glue of ["welche", "soll", "ich", "mir", "fur"]) expect(tokens).not.toContain(glue);
    expect(german.terms.find((t) => t.token === "leitlinie")?.group).toBe(0);
    const portuguese = parseQuery("Como rodamos os testes em paralelo?", DEFAULT_TUNING);
    expect(portuguese.terms.filter((t) => !t.variant).map((t) => t.token)).toEqual(["rodamos", "testes", "paralelo"]);
    // `die` or `was` alone do not make an English query German: `die` stays a content word.
    expect(parseQuery("why did the process die", DEFAULT_TUNING).terms.find((t) => t.token === "die")?.group).toBe(1);
  });

  it("makes a path, dotted or snake_case name one query word, and keeps it whole to find as written", () => {
    const parsed = parseQuery("what changed in django/db/models/fields/related.py and __init__.py", DEFAULT_TUNING);
    expect(parsed.groups).toBe(3);
    expect(parsed.compounds.map((c) => c.text)).toEqual(["django/db/models/fields/related.py", "__init__.py"]);
    const pathGroup = parsed.compounds[0]!.group;
    expect(parsed.terms.filter((t) => t.group === pathGroup).map((t) => [t.token, t.weight])).toEqual(
      ["django", "db", "models", "fields", "related", "py"].map((token) => [token, 1]),
    );
    // A version is a number, a sentence's full stop joins nothing.
    expect(parseQuery("3.6.9 failed. then", DEFAULT_TUNING).compounds).toEqual([]);
    expect(parseQuery("pytest_collect_file", DEFAULT_TUNING).compounds.map((c) => c.text)).toEqual(["pytest_collect_file"]);
  });

  it("has no term for a one-letter query", () => {
    expect(parseQuery("a", DEFAULT_TUNING).terms).toEqual([]);
  });
});

describe("countTerm", () => {
  it("counts whole words and single humps, not inner substrings", () => {
    expect(count("computeLineItemTotals", "line")).toBe(1);
    expect(count("computeLineItemTotals", "totals")).toBe(1);
    expect(count("computeLineItemTotals", "computeLineItemTotals")).toBe(1);
    expect(count("computeLineItemTotals", "ute")).toBe(0);
    expect(count("outline", "line")).toBe(0);
    expect(count("line, Line; LINE_x", "line")).toBe(3);
    expect(count("HTTPServer", "server")).toBe(1);
    expect(count("HTTPServer", "http")).toBe(1);
  });

  it("agrees with the tokenizer on every word", () => {
    const text = "fooBar barFoo XMLHttpRequest utf8Decoder foo_bar ünïcödé Foo 3.6.9 v2.1 1.2, 7 of 7.x 10.0.0.1";
    const tokens = tokenize(text);
    for (const token of new Set(tokens)) {
      const expected = tokens.filter((t) => t === token).length;
      expect([token, count(text, token)]).toEqual([token, expected]);
    }
  });

  it("finds a word, a hump or a number exactly where the tokenizer makes it a term, beside any text", () => {
    const pieces = ["a", "b", "Z", "Q", "x", "7", "0", ".", "_", " ", "-", "é", "É", "abc", "getHTTP", "Server", "3.6.9", "v1.2", "rateLimiter", "LIMIT", "\n"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 24 }), (parts) => {
        const text = parts.join("");
        const folded = fold(text);
        const tokens = tokenize(text);
        // Every word or hump token a query can have: runs of two or more letters and digits inside
        // the text, whether the tokenizer made them terms or not.
        const candidates = new Set<string>();
        for (let s = 0; s < folded.length; s++) {
          for (let e = s + 1; e <= Math.min(folded.length, s + 8); e++) {
            const run = folded.slice(s, e);
            if (!/^[\p{L}\p{N}]+$/u.test(run)) break;
            if (run.length >= 2) candidates.add(run);
          }
        }
        for (const token of candidates) {
          const term = { token, group: 0, cjk: false, weight: 1 };
          expect([token, countTerm(text, folded, term)]).toEqual([token, tokens.filter((t) => t === token).length]);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("counts CJK terms anywhere in a run", () => {
    expect(count("无线耳机和耳机", "耳机")).toBe(2);
  });
});

describe("hasPhrase", () => {
  it("agrees with the phrase pattern over folded text", () => {
    const pieces = ["rate", "Limiter", "RATE-limiter", "ſtop", "stop", "Café", "cafe", " ", "--", "_", "无线", "K", "x"];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces), { maxLength: 12 }),
        fc.array(fc.constantFrom(...pieces), { minLength: 2, maxLength: 4 }),
        (text, query) => {
          const parsed = parseQuery(query.join(" "), DEFAULT_TUNING);
          const joined = text.join("");
          expect(hasPhrase(parsed, joined)).toBe(parsed.phrase ? parsed.phrase.folded().test(fold(joined)) : false);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("compiles no Unicode pattern for a non-ASCII text lacking a word of the phrase", () => {
    const parsed = parseQuery("rate limiter", DEFAULT_TUNING);
    const folded = vi.spyOn(Phrase.prototype, "folded");
    try {
      expect(hasPhrase(parsed, "无线 rate only, no limit here")).toBe(false);
      expect(keywordMarks("无线 rate only", parsed).map((mark) => mark.key)).toEqual([0]);
      expect(folded).not.toHaveBeenCalled();
      expect(hasPhrase(parsed, "无线 RATE-Limiter")).toBe(true);
      expect(folded).toHaveBeenCalled();
    } finally {
      folded.mockRestore();
    }
  });

  it("finds, on ASCII text, the same matches with the ASCII pattern as the folded one over the fold", () => {
    const pieces = ["rate", "Limiter", "RATE-limiter", "stop", "STOP", "cafe", " ", "--", "_", "x", "K", "3.6"];
    const all = (pattern: RegExp, text: string) => [...text.matchAll(pattern)].map((m) => [m.index, m[0].length]);
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces), { maxLength: 12 }),
        fc.array(fc.constantFrom(...pieces), { minLength: 2, maxLength: 4 }),
        (text, query) => {
          const phrase = parseQuery(query.join(" "), DEFAULT_TUNING).phrase;
          if (!phrase) return;
          const folded = fold(text.join(""));
          const { pattern, overText } = phrase.forText(text.join(""), true);
          expect(overText).toBe(phrase.ascii);
          expect(all(pattern, folded)).toEqual(all(phrase.folded(true), folded));
        },
      ),
      { numRuns: 500 },
    );
  });
});
