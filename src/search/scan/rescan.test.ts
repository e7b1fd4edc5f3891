import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assistant, textMessage, toolCall, user } from "../../history/testing/messages.ts";
import { toolVisibility } from "../../history/tool-visibility.ts";
import { buildView } from "../../history/view.ts";
import { emptyStats } from "../rank/bm25.ts";
import type { Query } from "../parse.ts";
import { collectSession, sessionNearestTerms } from "../collect/search-one-session.ts";
import { FILLER_WORDS } from "../testing/filler.ts";
import type { DocFilter } from "../types.ts";
import { parseQuery } from "../text/query.ts";
import { correctQuery } from "../text/typos.ts";
import { rescanCounts } from "./rescan.ts";
import { countSession, scoreScan } from "./scan.ts";
import { DEFAULT_TUNING } from "../tuning.ts";

const T0 = Date.UTC(2025, 0, 1);
const visibility = toolVisibility([], []);

describe("a cold search again with corrected typos", () => {
  it("scans only for the terms the first query lacked, and finds what a full scan finds", async () => {
    const messages = Array.from({ length: 300 }, (_, i) => textMessage("s1", i % 2 === 0 ? "user" : "assistant", `${FILLER_WORDS} step${i}`, T0 + i * 1000));
    messages.push(textMessage("s1", "assistant", "The step histogram is cut off at the top.", T0 + 400_000));
    const view = buildView("s1", messages, false);
    const filters = { types: new Set(["text", "tool"] as const) };
    const typed = parseQuery("histgram river stone", DEFAULT_TUNING);
    const first = await collectSession(view, { kind: "keyword", text: "histgram river stone", parsed: typed }, filters, { tuning: DEFAULT_TUNING, visibility });
    expect(first.scan!.counted).toBe(300);
    const corrected: Query = { kind: "keyword", ...correctQuery("histgram river stone", new Map([["histgram", "histogram"]]), DEFAULT_TUNING) };
    const again = await collectSession(view, corrected, filters, { tuning: DEFAULT_TUNING, visibility, first });
    // Only the one message holding "histogram" is read; the other words' counts come from the first scan.
    expect(again.scan!.counted).toBe(1);
    const full = await collectSession(view, corrected, filters, { tuning: DEFAULT_TUNING, visibility });
    expect(full.scan!.counted).toBe(301);
    expect(again.docs).toEqual(full.docs);
    expect(again.stats).toEqual(full.stats);
  });

  it("scans the messages again when they changed since the first pass", async () => {
    const messages = [textMessage("s1", "user", "alpha river", T0), textMessage("s1", "assistant", "histogram river", T0 + 1000)];
    const filters = { types: new Set(["text"] as const) };
    const first = await collectSession(
      buildView("s1", messages, false),
      { kind: "keyword", text: "histgram river", parsed: parseQuery("histgram river", DEFAULT_TUNING) },
      filters,
      { tuning: DEFAULT_TUNING, visibility },
    );
    const grown = [...messages, textMessage("s1", "user", "histogram again river", T0 + 2000)];
    const corrected: Query = { kind: "keyword", ...correctQuery("histgram river", new Map([["histgram", "histogram"]]), DEFAULT_TUNING) };
    const again = await collectSession(buildView("s1", grown, false), corrected, filters, { tuning: DEFAULT_TUNING, visibility, first });
    expect(again.scan!.counted).toBe(3);
    expect(again.docs.map((doc) => doc.message.id)).toEqual(grown.map((message) => message.id));
  });

  it("renders each tool call once over the first pass, the typo lookup and the search again", async () => {
    const call = toolCall("bash", { command: "grep -n histogram plot.py" }, "completed", "12: histogram river\n");
    const input = call.input;
    let reads = 0;
    Object.defineProperty(call, "input", {
      get: () => {
        reads++;
        return input;
      },
      enumerable: true,
    });
    const view = buildView("s1", [user("river stone"), assistant(["the histogram", call])], false);
    const filters = { types: new Set(["text", "tool"] as const) };
    reads = 0;
    const first = await collectSession(view, { kind: "keyword", text: "histgram river", parsed: parseQuery("histgram river", DEFAULT_TUNING) }, filters, {
      tuning: DEFAULT_TUNING,
      visibility,
    });
    const nearest = await sessionNearestTerms(view, first, ["histgram"], { tuning: DEFAULT_TUNING, visibility });
    expect(nearest?.get("histgram")).toEqual([{ term: "histogram", distance: 1, df: 2 }]);
    const corrected: Query = { kind: "keyword", ...correctQuery("histgram river", new Map([["histgram", "histogram"]]), DEFAULT_TUNING) };
    const again = await collectSession(view, corrected, filters, { tuning: DEFAULT_TUNING, visibility, first });
    expect(again.docs.map((doc) => doc.type)).toEqual(["text", "text", "tool"]);
    expect(reads).toBe(1);
  });

  it("keeps no pieces of a text the prefilter rules out, and the typo lookup reads that text from its part", async () => {
    const messages = [user("the histogram river"), assistant(["nothing here but stone", toolCall("bash", { command: "ls" }, "completed", "plot.py\n")])];
    const view = buildView("s1", messages, false);
    const filters = { types: new Set(["text", "tool"] as const) };
    const first = await collectSession(view, { kind: "keyword", text: "river", parsed: parseQuery("river", DEFAULT_TUNING) }, filters, {
      tuning: DEFAULT_TUNING,
      visibility,
    });
    const [asked, [ruledOut, call]] = [messages[0]!.parts, messages[1]!.parts];
    expect(first.scan!.parts.map((part) => part?.partId)).toEqual([asked[0]!.id, undefined, call!.id]);
    expect(ruledOut!.kind).toBe("text");
    expect((await sessionNearestTerms(view, first, ["stome"], { tuning: DEFAULT_TUNING, visibility }))?.get("stome")?.[0]?.term).toBe("stone");
  });

  // Words, their typos, other forms, a decimal and its parts, camelCase and snake_case names.
  const WORDS = [
    "histogram",
    "histgram",
    "histograms",
    "pattern",
    "patterns",
    "patern",
    "collect",
    "collected",
    "colect",
    "limit",
    "limits",
    "3.6.9",
    "3.6",
    "stepHistogram",
    "path_simplify",
    "Histogram",
    "HISTOGRAM",
    "histogramme",
    "ΣΤΕΠ",
  ];
  const text = fc.array(fc.constantFrom(...WORDS, "and", "the"), { minLength: 1, maxLength: 6 }).map((words) => words.join(" "));
  const message = fc
    .tuple(fc.boolean(), text, text)
    .map(([isUser, a, b]) => (isUser ? user(a) : assistant([a, toolCall("bash", { command: `grep ${b}` }, "completed", `${b}\n${a}\n`)])));
  const query = fc.array(fc.constantFrom(...WORDS, "the"), { minLength: 1, maxLength: 4 }).map((words) => words.join(" "));
  const corrections = fc.array(
    fc.tuple(fc.constantFrom("histgram", "patern", "colect", "limits", "histogramme"), fc.constantFrom(...WORDS.filter((w) => /^[a-z]+$/i.test(w)))),
    { maxLength: 2 },
  );

  it("merges into the counts, candidates and scores a full scan of the corrected query gives", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(message, { minLength: 1, maxLength: 8 }), query, corrections, fc.boolean(), async (messages, q, pairs, toolsOnly) => {
        const typed = parseQuery(q, DEFAULT_TUNING);
        const { parsed } = correctQuery(q, new Map(pairs.map(([word, to]) => [word, to.toLowerCase()])), DEFAULT_TUNING);
        const accept: DocFilter = (_, type) => !toolsOnly || type === "tool";
        const first = (await countSession(messages, visibility, typed.terms, DEFAULT_TUNING, accept))!;
        const merged = (await rescanCounts(first, parsed.terms, accept))!;
        const full = (await countSession(messages, visibility, parsed.terms, DEFAULT_TUNING, accept))!;
        expect(merged.candidates).toEqual(full.candidates);
        expect([merged.df, merged.docs, merged.length]).toEqual([full.df, full.docs, full.length]);
        const [mergedStats, fullStats] = [emptyStats(0), emptyStats(0)];
        expect(scoreScan(merged, { stats: mergedStats })).toEqual(scoreScan(full, { stats: fullStats }));
        expect(mergedStats).toEqual(fullStats);
      }),
      { numRuns: 200 },
    );
  });
});
