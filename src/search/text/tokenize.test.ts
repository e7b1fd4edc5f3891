import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CJK, SEP, charClass, fold } from "./normalize.ts";
import { TokenSpans, dottedEnd, pushTerms, runEnd, tokenSpans, tokenize } from "./tokenize.ts";

/** tokenSpans written plainly: each word found by runEnd, extended by dottedEnd, its terms by pushTerms. */
function referenceSpans(text: string): number[] {
  const spans = new TokenSpans();
  let i = 0;
  while (i < text.length) {
    const cls = charClass(text.charCodeAt(i));
    if (cls === SEP) {
      i++;
      continue;
    }
    let j = i + 1;
    if (cls === CJK) {
      while (j < text.length && charClass(text.charCodeAt(j)) === CJK) j++;
      for (let k = i; k < j; k++) {
        spans.push(k, k + 1);
        if (k + 1 < j) spans.push(k, k + 2);
      }
    } else {
      j = runEnd(text, i);
      const end = dottedEnd(text, i, j);
      pushTerms(spans, text, i, j, end);
      j = end;
    }
    i = j;
  }
  return Array.from(spans.data.subarray(0, spans.size));
}

describe("fold", () => {
  it("lowers case, removes accents, narrows full-width, keeps length", () => {
    for (const text of ["Crème Brûlée", "ÀÉÎÕÜ ñ ç", "ＡＢＣ１２３", "Ελληνικά", "İstanbul ß", "無線イヤホン"]) {
      expect(fold(text).length).toBe(text.length);
    }
    expect(fold("Crème Brûlée")).toBe("creme brulee");
    expect(fold("ＡＢＣ")).toBe("abc");
    expect(fold("Ελληνικά")).toBe("ελληνικα");
    expect(fold("HELLO")).toBe("hello");
  });
});

describe("tokenize", () => {
  it("keeps identifiers whole and splits their humps", () => {
    expect(tokenize("computeLineItemTotals()")).toEqual(["computelineitemtotals", "compute", "line", "item", "totals"]);
    expect(tokenize("HTTPServer parseJSONBody")).toEqual(["httpserver", "http", "server", "parsejsonbody", "parse", "json", "body"]);
  });

  it("splits snake case and paths into words and file names", () => {
    expect(tokenize("PAYMENT_SANDBOX_KEY")).toEqual(["payment", "sandbox", "key"]);
    expect(tokenize("src/search/tokenize.ts")).toEqual(["src", "search", "tokenize", "ts"]);
  });

  it("drops one-letter words and over-long runs", () => {
    expect(tokenize("a b c go")).toEqual(["go"]);
    expect(tokenize("x".repeat(60))).toEqual([]);
  });

  it("gives CJK runs overlapping bigrams and characters", () => {
    expect(tokenize("无线耳机")).toEqual(["无", "无线", "线", "线耳", "耳", "耳机", "机"]);
    expect(tokenize("카드가")).toEqual(["카", "카드", "드", "드가", "가"]);
    expect(tokenize("abc形態素def")).toEqual(["abc", "形", "形態", "態", "態素", "素", "def"]);
  });

  it("gives the spans of the plain word-by-word walk on any text", () => {
    const pieces = ["a", "b", "Z", "Q", "x", "7", "0", ".", "_", " ", "-", "é", "É", "１", "无", "线", "ー", "abc", "getHTTP", "3.6.9", "v1.2", "..", "\n"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), fc.integer({ min: 1, max: 60 }), (parts, long) => {
        const text = parts.join("") + (long > 45 ? "y".repeat(long) : "");
        const spans = new TokenSpans();
        tokenSpans(text, spans);
        expect(Array.from(spans.data.subarray(0, spans.size))).toEqual(referenceSpans(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("folds case and accents", () => {
    expect(tokenize("Café RÉSUMÉ")).toEqual(["cafe", "resume"]);
  });
});
