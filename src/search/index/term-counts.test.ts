// TermCounts against the plain count it replaces (a Map of number arrays per term), over
// random chunks, across its pair blocks and groupings, with a call's input weighted.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fold } from "../text/normalize.ts";
import { TokenSpans, tokenSpans } from "../text/tokenize.ts";
import { TERM_CHUNK_STRIDE } from "../types.ts";
import { ChunkList, TermChunks, TermCounts } from "./term-counts.ts";

const WORDS = ["cache", "Cache", "limiter", "0.33744", "x", "débito", "computeTotals", "数据库", "src/app.ts", "the"];

/**
 * Counts `texts` both ways; `inputs[i]` code units of text i are a call's input, weighted 3; the
 * counts grouped after the chunks in `groupAfter` and left ungrouped past the last of them.
 */
function countBoth(texts: readonly string[], inputs: readonly number[], groupAfter: ReadonlySet<number> = new Set([texts.length - 1])) {
  const counter = new TermCounts();
  const table = new ChunkList();
  const plain = new Map<string, number[]>();
  const spans = new TokenSpans();
  texts.forEach((text, chunk) => {
    const message = Math.floor(chunk / 3);
    table.chunks.push(message, 0, 0, text.length, inputs[chunk]!);
    const folded = fold(text);
    tokenSpans(text, spans);
    const tfs = new Map<string, number>();
    for (let i = 0; i < spans.size; i += 2) {
      const term = folded.slice(spans.data[i]!, spans.data[i + 1]!);
      tfs.set(term, (tfs.get(term) ?? 0) + (spans.data[i]! < inputs[chunk]! ? 3 : 1));
    }
    for (const [term, tf] of tfs) {
      const list = plain.get(term) ?? [];
      list.push(chunk, tf, text.length, message);
      plain.set(term, list);
    }
    counter.add(chunk, folded, spans, inputs[chunk]!, 3);
    if (groupAfter.has(chunk)) counter.group();
  });
  return { counted: new TermChunks(counter, table), plain };
}

describe("TermCounts", () => {
  it("gives every term's chunks, frequencies, lengths and messages as a plain count does", () => {
    const chunkText = fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }).map((words) => words.join(" "));
    fc.assert(
      fc.property(fc.array(fc.tuple(chunkText, fc.nat(40), fc.boolean()), { maxLength: 30 }), (chunks) => {
        const { counted, plain } = countBoth(
          chunks.map(([text]) => text),
          chunks.map(([text, input]) => Math.min(input, text.length)),
          new Set(chunks.flatMap(([, , grouped], chunk) => (grouped ? [chunk] : []))),
        );
        expect(counted.size).toBe(plain.size);
        expect(new Map(Array.from(counted.entries(), ([term, list]) => [term, [...list]]))).toEqual(plain);
        for (const [term, list] of plain) expect(counted.get(term)).toEqual(list);
        expect(counted.get("absent")).toBeUndefined();
      }),
    );
  });

  it("keeps pairs across its blocks in chunk order", () => {
    // 70,000 chunks of two terms each: 140,000 pairs, past two blocks of 65,536.
    const texts = Array.from({ length: 70_000 }, (_, chunk) => `common w${chunk % 7}`);
    const { counted, plain } = countBoth(texts, new Array<number>(texts.length).fill(0));
    const common = counted.get("common")!;
    expect(common.length / TERM_CHUNK_STRIDE).toBe(70_000);
    expect(common).toEqual(plain.get("common"));
    expect(counted.get("w3")).toEqual(plain.get("w3"));
  });

  it("hands entries one list it refills: a kept list must be copied", () => {
    const { counted } = countBoth(["alpha beta", "beta"], [0, 0]);
    const seen = Array.from(counted.entries(), ([term, list]) => [term, [...list]]);
    expect(seen).toEqual([
      ["alpha", [0, 1, 10, 0]],
      ["beta", [0, 1, 10, 0, 1, 1, 4, 0]],
    ]);
  });
});
