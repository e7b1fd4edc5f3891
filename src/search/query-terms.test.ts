import { describe, expect, it } from "vitest";
import { MemorySource } from "../store/testing/memory-source.ts";
import { FILLER } from "./testing/filler.ts";
import { idsOnBothPaths } from "./testing/service.ts";
import { addSession } from "./testing/sessions.ts";
import { fold } from "./text/normalize.ts";
import { tokenize } from "./text/tokenize.ts";
import { countTerm, parseQuery } from "./text/query.ts";
import { DEFAULT_TUNING } from "./tuning.ts";

describe("numbers and versions", () => {
  it("are terms: a dotted version whole and by its parts, and one-digit numbers", () => {
    expect(tokenize("python 3.6.9 on 127.0.0.1")).toEqual(["python", "3.6.9", "3", "6", "9", "on", "127.0.0.1", "127", "0", "0", "1"]);
    expect(tokenize("4 messages instead of 2")).toEqual(["4", "messages", "instead", "of", "2"]);
  });

  it("are found: a version, its parts, and a question with short numbers", async () => {
    const source = new MemorySource();
    const messages = addSession(source, "s1", [
      ...FILLER,
      "The container runs Python 3.6.9, which lacks dataclasses.",
      "The handler sent messages to the queue.",
      "Bug: the handler sent 4 messages instead of 2 to the queue.",
      ...FILLER,
    ]);
    const version = messages[FILLER.length]!.id;
    for (const query of ["3.6.9", "python 3.6"]) {
      const { cold, warm } = await idsOnBothPaths(source, "s1", query);
      expect([query, cold[0], warm[0]]).toEqual([query, version, version]);
    }
    const numbers = messages[FILLER.length + 2]!.id;
    const { cold, warm } = await idsOnBothPaths(source, "s1", "4 messages instead of 2");
    expect([cold[0], warm[0]]).toEqual([numbers, numbers]);
  });

  it("match a dotted number only whole: 3.6 is not a term of 3.6.9", () => {
    const term = parseQuery("3.6", DEFAULT_TUNING).terms[0]!;
    expect(term.token).toBe("3.6");
    for (const [text, expected] of [
      ["on 3.6.9", 0],
      ["on 3.6, then 3.6.", 2],
      ["v13.6", 0],
      ["1.3.6", 0],
    ] as const) {
      expect([text, countTerm(text, fold(text), term)]).toEqual([text, expected]);
    }
  });
});

describe("numbers", () => {
  it("match only whole: an integer finds no longer number, a decimal quoted shorter only its parts", async () => {
    const source = new MemorySource();
    addSession(source, "s1", [...FILLER, "We ran 309 tests, max height 0.3374442232839788.", ...FILLER]);
    const { cold, warm } = await idsOnBothPaths(source, "s1", "30");
    expect([cold, warm]).toEqual([[], []]);
    expect(parseQuery("0.337", DEFAULT_TUNING).terms.map((term) => term.token)).toEqual(["0.337", "0", "337"]);
  });
});

describe("stemming", () => {
  it("finds other forms of a natural-language word, the form typed first", async () => {
    const source = new MemorySource();
    const messages = addSession(source, "s1", [...FILLER, "The script printed the totals and pushed the branch.", "It prints the report.", ...FILLER]);
    for (const query of ["prints totals", "push branch"]) {
      const { cold, warm } = await idsOnBothPaths(source, "s1", query);
      expect([query, cold[0], warm[0]]).toEqual([query, messages[FILLER.length]!.id, messages[FILLER.length]!.id]);
    }
    const { cold, warm } = await idsOnBothPaths(source, "s1", "prints");
    expect(cold.slice(0, 2)).toEqual([messages[FILLER.length + 1]!.id, messages[FILLER.length]!.id]);
    expect(warm.slice(0, 2)).toEqual(cold.slice(0, 2));
  });

  it("finds an adverb's adjective when they share a stem, not a shorter word that does not", async () => {
    const variants = (query: string) =>
      parseQuery(query, DEFAULT_TUNING)
        .terms.filter((t) => t.weight === DEFAULT_TUNING.query.stems.weight)
        .map((t) => t.token);
    expect(variants("recursively")).toContain("recursive");
    expect(variants("manually")).toContain("manual");
    expect(variants("apply")).not.toContain("app");
    expect(variants("family")).not.toContain("fami");
    const source = new MemorySource();
    const messages = addSession(source, "s1", [...FILLER, "Ran pylint --recursive=y --ignore=.a on the tree.", ...FILLER]);
    const { cold, warm } = await idsOnBothPaths(source, "s1", "pylint recursively");
    expect([cold[0], warm[0]]).toEqual([messages[FILLER.length]!.id, messages[FILLER.length]!.id]);
  });

  it("joins a verb in -ify and its noun in -ification, which Porter stems apart", async () => {
    const variants = (query: string) =>
      parseQuery(query, DEFAULT_TUNING)
        .terms.filter((t) => t.weight === DEFAULT_TUNING.query.stems.weight)
        .map((t) => t.token);
    expect(variants("simplification")).toEqual(expect.arrayContaining(["simplify", "simplified", "simplifies", "simplifying"]));
    expect(variants("verified")).toEqual(expect.arrayContaining(["verify", "verification", "verifications"]));
    const source = new MemorySource();
    const messages = addSession(source, "s1", [...FILLER, "Path simplification drops the top vertices.", "We simplify the polygon first.", ...FILLER]);
    const { cold, warm } = await idsOnBothPaths(source, "s1", "simplified");
    expect(new Set(cold.slice(0, 2))).toEqual(new Set([messages[FILLER.length]!.id, messages[FILLER.length + 1]!.id]));
    expect(warm.slice(0, 2)).toEqual(cold.slice(0, 2));
  });

  it("makes only real forms of a word whose stem turned y into i", () => {
    const variants = (query: string) =>
      parseQuery(query, DEFAULT_TUNING)
        .terms.filter((t) => t.weight === DEFAULT_TUNING.query.stems.weight)
        .map((t) => t.token);
    expect(variants("query")).toEqual(expect.arrayContaining(["queries", "queried", "querying"]));
    expect(variants("play")).toEqual(expect.arrayContaining(["plays", "played", "playing"]));
    for (const junk of ["queryed", "queriing", "querie"]) expect(variants("query")).not.toContain(junk);
    for (const junk of ["plaies", "plaied", "plai"]) expect(variants("play")).not.toContain(junk);
  });

  it("leaves identifiers, paths and numbers as typed", () => {
    const variants = (query: string) =>
      parseQuery(query, DEFAULT_TUNING)
        .terms.filter((t) => t.weight === DEFAULT_TUNING.query.stems.weight)
        .map((t) => t.token);
    expect(variants("printed")).toContain("print");
    for (const query of ["printLines", "src/printed.ts", "printed_total", "PRINTED", "print3d"]) expect([query, variants(query)]).toEqual([query, []]);
  });
});

describe("identifier parts", () => {
  it("weigh with the whole word as one concept", () => {
    for (const query of ["computeLineItemTotals", "3.6.9", "HTTPServer"]) {
      const total = parseQuery(query, DEFAULT_TUNING).terms.reduce((sum, t) => sum + t.weight, 0);
      expect(total).toBeCloseTo(1, 9);
    }
  });

  it("do not let one identifier outweigh the rest of the query", async () => {
    const source = new MemorySource();
    const messages = addSession(source, "s1", [
      ...FILLER,
      "fetchUserProfile fetchUserProfile is called from the page.",
      "Two retries then status 412 on the call.",
      ...FILLER,
    ]);
    const { cold, warm } = await idsOnBothPaths(source, "s1", "fetchUserProfile retries 412");
    expect([cold[0], warm[0]]).toEqual([messages[FILLER.length + 1]!.id, messages[FILLER.length + 1]!.id]);
  });
});

describe("function words", () => {
  it("are glue beside content words: not searched, no coverage word, no other forms", () => {
    const parsed = parseQuery("why did the deploy fail", DEFAULT_TUNING);
    expect(parsed.terms.map((t) => t.token)).not.toContain("why");
    expect(parsed.terms.map((t) => t.token)).not.toContain("the");
    expect(parsed.terms.filter((t) => t.group === 0 && !t.variant).map((t) => t.token)).toEqual(["deploy"]);
    expect(parsed.groups).toBe(2);
    expect(parsed.terms.filter((t) => t.group >= 0).map((t) => t.token)).toContain("failed");
  });

  it("are searched as typed when the query has nothing else", () => {
    const parsed = parseQuery("what is this", DEFAULT_TUNING);
    expect(parsed.groups).toBe(3);
    expect(parsed.terms.every((t) => t.group >= 0 && t.weight === 1)).toBe(true);
  });

  it("do not rank a message up for holding the question's glue", async () => {
    const source = new MemorySource();
    const messages = addSession(source, "s1", [
      ...FILLER,
      "Why did we pick the blue theme? Why did the meeting move? I did not ask why, but the deploy slot moved too.",
      "Deploy failed: the registry token had expired.",
      ...FILLER,
    ]);
    const { cold, warm } = await idsOnBothPaths(source, "s1", "why did the deploy fail");
    expect([cold[0], warm[0]]).toEqual([messages[FILLER.length + 1]!.id, messages[FILLER.length + 1]!.id]);
  });
});
