import { describe, expect, it } from "vitest";
import { fold } from "./normalize.ts";
import { tokenize } from "./tokenize.ts";

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

  it("folds case and accents", () => {
    expect(tokenize("Café RÉSUMÉ")).toEqual(["cafe", "resume"]);
  });
});
