import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TokenSpans, tokenSpans } from "../../text/tokenize.ts";
import { inputSpansInText } from "./postings-index.ts";

function spansOf(text: string): Array<[number, number]> {
  const spans = new TokenSpans();
  tokenSpans(text, spans);
  const out: Array<[number, number]> = [];
  for (let i = 0; i < spans.size; i += 2) out.push([spans.data[i]!, spans.data[i + 1]!]);
  return out;
}

describe("a chunk's input read from its text's spans", () => {
  it("has exactly the terms of the input tokenized alone whenever the text's spans are taken", () => {
    const pieces = ["a", "Z", "7", ".", "_", " ", "\n", "-", "é", "无", "线", "getHTTP", "3.6", "\n---\n"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 30 }), fc.nat(), (parts, at) => {
        const text = parts.join("");
        const input = text.slice(0, at % (text.length + 1));
        if (!inputSpansInText(text, input)) return;
        expect(spansOf(text).filter(([start]) => start < input.length)).toEqual(spansOf(input));
      }),
      { numRuns: 3000 },
    );
  });

  it("takes them for a signature followed by the output, never across a dot or a word, nor for another text", () => {
    const signature = 'bash(command="pytest tests/test_api.py")';
    expect(inputSpansInText(`${signature}\n---\nok`, signature)).toBe(true);
    expect(inputSpansInText(signature, signature)).toBe(true);
    expect(inputSpansInText("version 3.6.9", "version 3")).toBe(false);
    expect(inputSpansInText("camelCase", "camel")).toBe(false);
    expect(inputSpansInText("other text", "another")).toBe(false);
  });
});
