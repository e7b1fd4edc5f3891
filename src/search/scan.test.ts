import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fold } from "./normalize.ts";
import { quickFilter } from "./scan.ts";
import { countTerm, countTermAscii, parseQuery } from "./tokenize.ts";

describe("scan quick filter", () => {
  it("never rules out a chunk whose folded text holds a query term", () => {
    const pieces = ["Token", "bucket", "LIMITER", "tökén", "ＴＯＫＥＮ", "无线耳机", "が", "か", "ſ", "s", "K", " ", "\n", "x.y", "(", "[a]"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 3 }), (text, query) => {
        const parsed = parseQuery(query.join(" "));
        const quick = quickFilter(parsed);
        const joined = text.join("");
        const folded = fold(joined);
        if (quick && parsed.terms.some((term) => folded.includes(term.token))) expect(quick.test(joined)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("countTermAscii", () => {
  it("counts as countTerm does over the folded text", () => {
    const pieces = ["Token", "token", "TOKEN", "tokenBucket", "myToken", "xtoken", "tok", "en", " ", "_", ".", "9", "TokenToken"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 16 }), fc.constantFrom("token", "bucket", "en", "tokentoken"), (text, word) => {
        const joined = text.join("");
        for (const term of parseQuery(word).terms) {
          const finder = new RegExp(term.token, "gi");
          expect(countTermAscii(joined, term, finder)).toBe(countTerm(joined, fold(joined), term));
        }
      }),
      { numRuns: 1000 },
    );
  });
});
