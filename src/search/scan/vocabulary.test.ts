import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { TokenSpans, tokenSpans } from "../text/tokenize.ts";
import { termStartPattern, termsStartingAt } from "./vocabulary.ts";

/** Every term of `text` starting with one of `letters`, in either case: by the tokenizer, and by the start pattern. */
function bothWays(text: string, letters: string): { tokenized: string[]; found: string[] } {
  const spans = new TokenSpans();
  tokenSpans(text, spans);
  const tokenized = new Set<string>();
  for (let i = 0; i < spans.size; i += 2) {
    const term = text.slice(spans.data[i]!, spans.data[i + 1]!);
    if (letters.includes(term[0]!.toLowerCase())) tokenized.add(`${spans.data[i]}:${term}`);
  }
  const found = new Set<string>();
  termsStartingAt(text, termStartPattern(letters), (start, end) => found.add(`${start}:${text.slice(start, end)}`));
  return { tokenized: [...tokenized].sort(), found: [...found].sort() };
}

describe("terms found from their first letter (the cold typo lookup)", () => {
  it("are the tokenizer's terms starting with that letter: words whole and their camelCase parts", () => {
    const { tokenized, found } = bothWays("getWarmth warm_up HTTPWarmServer x2Warm WARM w 3.6.9 walkWay", "w");
    expect(found).toEqual(tokenized);
    expect(found).toContain("3:Warmth");
    expect(found).toContain("22:Warm");
    expect(found).toContain("53:walkWay");
    expect(found).toContain("57:Way");
    expect(found.some((term) => term.endsWith(":w"))).toBe(false);
  });

  it("match tokenSpans on any ASCII text", () => {
    const pieces = ["w", "W", "wa", "Wa", "WA", "x", "X", "z", "7", "_", ".", "-", " ", "/", "rm", "Rm", "arm", "HTTP", "warm", "Warm"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 30 }), fc.constantFrom("w", "wx", "r"), (parts, letters) => {
        const { tokenized, found } = bothWays(parts.join(""), letters);
        expect(found).toEqual(tokenized);
      }),
      { numRuns: 2000 },
    );
  });
});
