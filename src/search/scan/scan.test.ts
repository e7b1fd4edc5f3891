import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fold } from "../text/normalize.ts";
import { termGates } from "../text/term-nesting.ts";
import { FOLDS_OFF_ASCII, countTerms, quickFilter, termFinders } from "./scan.ts";
import { countTerm, parseQuery } from "../text/query.ts";
import { DEFAULT_TUNING } from "../tuning.ts";

describe("scan quick filter", () => {
  it("never rules out a chunk whose folded text holds a query term", () => {
    const pieces = ["Token", "bucket", "LIMITER", "tökén", "ＴＯＫＥＮ", "无线耳机", "が", "か", "ſ", "s", "K", " ", "\n", "x.y", "(", "[a]"];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces), { maxLength: 12 }),
        fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 3 }),
        (text, query) => {
          const parsed = parseQuery(query.join(" "), DEFAULT_TUNING);
          const quick = quickFilter(parsed);
          const joined = text.join("");
          const folded = fold(joined);
          if (quick && parsed.terms.some((term) => folded.includes(term.token))) expect(quick.test(joined)).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("lets through, for ASCII-only queries, only characters whose fold may be ASCII", () => {
    const offAscii = new RegExp(`[${FOLDS_OFF_ASCII}]`);
    let checked = 0;
    for (let code = 0x80; code <= 0xffff; code++) {
      const ch = String.fromCharCode(code);
      if (!offAscii.test(ch)) continue;
      checked++;
      expect(fold(ch)).not.toMatch(/[a-z0-9]/);
    }
    expect(checked).toBeGreaterThan(30000);
    const quick = quickFilter(parseQuery("token", DEFAULT_TUNING))!;
    expect(quick.test("无线耳机、トークン")).toBe(false);
    expect(quick.test("无线耳机 ＴＯＫＥＮ")).toBe(true);
    expect(quickFilter(parseQuery("token 耳机", DEFAULT_TUNING))!.test("无线")).toBe(true);
  });
});

describe("countTerms", () => {
  it("counts every term, stemmed word forms included, as countTerm does over the folded text", () => {
    const pieces = [
      "Token",
      "tokens",
      "TOKENED",
      "tokenBucket",
      "myToken",
      "xtoken",
      "tok",
      "en",
      "print",
      "Prints",
      "PRINTED",
      "printing",
      "reprint",
      "printEd",
      "print_ed",
      "retry",
      "Retried",
      "retries",
      "limit",
      "rateLimiter",
      "limits",
      "LIMITED",
      "é",
      "ＰＲＩＮＴ",
      " ",
      "_",
      ".",
      "9",
      "TokenToken",
    ];
    const queries = ["token", "printing limits", "retried tokens", "print limiter", "tokentoken en", "limited 3.6.9"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 16 }), fc.constantFrom(...queries), (text, query) => {
        const joined = text.join("");
        const terms = parseQuery(query, DEFAULT_TUNING).terms;
        const expected = terms.map((term) => countTerm(joined, fold(joined), term));
        const counted = countTerms(joined, termFinders(terms), undefined);
        expect(counted ?? terms.map(() => 0)).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it("gates each form of a word on a shorter term its token holds, down to the stem", () => {
    const terms = parseQuery("printing", DEFAULT_TUNING).terms;
    const { gates } = termGates(terms);
    const tokens = terms.map((term) => term.token);
    expect(tokens).toContain("print");
    for (let t = 0; t < terms.length; t++) {
      if (tokens[t] === "print") continue;
      expect(tokens[t]).toContain(tokens[gates[t]!]);
      let root = t;
      while (gates[root]! >= 0) root = gates[root]!;
      expect(tokens[root]).toBe("print");
    }
  });
});

describe("scan agrees with the index", () => {
  it("scores every document the index returns exactly as the index does", async () => {
    const { SessionIndex } = await import("../index/session-index.ts");
    const { scanSession } = await import("./scan.ts");
    const { toolVisibility } = await import("../../history/tool-visibility.ts");
    const { buildView } = await import("../../history/view.ts");
    const { HIT_TYPES } = await import("../text/documents.ts");
    const { assistant, toolCall, user } = await import("../../history/testing/messages.ts");
    const visibility = toolVisibility([], []);
    const words = [
      "tokenBucket",
      "token",
      "BUCKET",
      "limiter",
      "Café",
      "无线耳机",
      "x",
      "rate_limiter",
      "\n",
      "--",
      "ÉCLAIR",
      "eclair",
      "limits",
      "Limited",
      "tokens",
      "Printed",
      "printing",
      "reprint",
    ];
    const text = fc.array(fc.constantFrom(...words), { maxLength: 30 }).map((w) => w.join(" "));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(text, text, text), { minLength: 1, maxLength: 12 }),
        fc.constantFrom("token bucket", "limiter", "eclair", "无线", "café limiter", "printing limits", "tokens limited", "rate_limiter tokens"),
        async (rows, query) => {
          // A written file's content is the call's input (weighted), here at times longer than a chunk.
          const written = (c: string) =>
            toolCall("write", { filePath: "src/rate_limiter.ts", content: `${c}\n`.repeat(c.length % 2 === 0 ? 400 : 2) }, "completed", "Wrote file");
          const messages = rows.flatMap(([a, b, c]) => [
            user(a || "hello"),
            assistant([b || "reply", toolCall("bash", { command: c }, "completed", `${b}\n${c}`.repeat(c.length % 3 === 0 ? 300 : 3)), written(c)]),
          ]);
          const index = new SessionIndex(visibility, DEFAULT_TUNING);
          for (const message of messages) index.addMessage(message);
          const scanned = (await scanSession(messages, visibility, parseQuery(query, DEFAULT_TUNING), () => true))!;
          const byKey = new Map(scanned.map((doc) => [`${doc.partId}:${doc.start}`, doc.score]));
          const hits = index.search(parseQuery(query, DEFAULT_TUNING), { types: new Set(HIT_TYPES) }, buildView("s", messages, false));
          for (const hit of hits) {
            expect(byKey.get(`${hit.meta.partId}:${hit.meta.start}`)).toBeCloseTo(hit.score, 9);
          }
          expect(hits.length).toBe(scanned.length);
        },
      ),
      { numRuns: 150 },
    );
  });
});
