// Properties of the text shaping every answer goes through: cuts, clips, previews and part pages
// never throw, never split a surrogate pair, and stay within their length and byte bounds.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { byteLength } from "./compact.ts";
import { MAX_ANSWER_BYTES } from "./limits.ts";
import { pullPart } from "./pull-part.ts";
import { clip, flatten, safeCut, cutWithMarker } from "./text.ts";
import { toolVisibility } from "./tool-visibility.ts";
import { buildView } from "./view.ts";

const RUNS = 300;

const surrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
const control = fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code));
const unit = fc.oneof(
  { weight: 5, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.constantFrom("🦀", "界", " ", "\n", ".", "。", '"', "\\") },
  { weight: 1, arbitrary: surrogate },
  { weight: 1, arbitrary: control },
);
/** Any text: astral characters, CJK, whitespace, controls, lone and paired surrogates. */
const text = fc.string({ unit, maxLength: 400 });

/** True when a pair that is whole in `source` is broken at either end of `piece` taken at `start`. */
function splitsPair(source: string, start: number, end: number): boolean {
  const high = (i: number) => {
    const c = source.charCodeAt(i);
    return c >= 0xd800 && c <= 0xdbff;
  };
  const low = (i: number) => {
    const c = source.charCodeAt(i);
    return c >= 0xdc00 && c <= 0xdfff;
  };
  return (start > 0 && high(start - 1) && low(start)) || (end < source.length && end > 0 && high(end - 1) && low(end));
}

/** Pairs of the output that the input did not have whole: a broken pair shows up as a lone half. */
function lonelyHalves(value: string): number {
  return (value.match(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g) ?? []).length;
}

/** clip as first written: flatten the whole text, then cut (the reference for the prefix shortcut). */
function clipOfWhole(value: string, max: number): string {
  const flat = flatten(value);
  if (flat.length <= max) return flat;
  const room = Math.max(1, max - 1);
  const head = flat.slice(0, safeCut(flat, room));
  let sentenceCut = -1;
  for (const match of head.matchAll(/[.!?。！？](?=\s|$)|[。！？]/g)) sentenceCut = match.index + match[0].length;
  if (sentenceCut >= room * 0.6) return `${head.slice(0, sentenceCut).trimEnd()}…`;
  const space = flat[head.length] === " " ? head.length : head.lastIndexOf(" ");
  if (space >= room * 0.6) return `${head.slice(0, space).trimEnd()}…`;
  return `${head}…`;
}

describe("text shaping, for any text", () => {
  it("safeCut stays in range, never splits a pair, and is stable", () => {
    fc.assert(
      fc.property(text, fc.integer({ min: -5, max: 450 }), (value, index) => {
        const cut = safeCut(value, index);
        expect(cut).toBeGreaterThanOrEqual(0);
        expect(cut).toBeLessThanOrEqual(Math.max(0, Math.min(index, value.length)));
        expect(cut).toBeGreaterThanOrEqual(Math.min(Math.max(index, 0), value.length) - 1);
        expect(splitsPair(value, 0, cut)).toBe(false);
        expect(safeCut(value, cut)).toBe(cut);
      }),
      { numRuns: RUNS },
    );
  });

  it("flatten leaves one line without controls; clip stays within its length and breaks no pair", () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 2, max: 300 }), (value, max) => {
        const flat = flatten(value);
        expect(flat).not.toMatch(/[\u0000-\u001F\u007F]/);
        const clipped = clip(value, max);
        expect(clipped.length).toBeLessThanOrEqual(max);
        expect(lonelyHalves(clipped)).toBeLessThanOrEqual(lonelyHalves(flat));
      }),
      { numRuns: RUNS },
    );
  });

  it("clip of a long text equals clipping the whole flattened text", () => {
    const spaced = fc.tuple(text, fc.constantFrom(" ", "\n\t", "\u0000"), fc.integer({ min: 0, max: 2000 }), text);
    fc.assert(
      fc.property(spaced, fc.integer({ min: 2, max: 300 }), ([head, filler, count, tail], max) => {
        const value = head + filler.repeat(count) + tail;
        expect(clip(value, max)).toBe(clipOfWhole(value, max));
      }),
      { numRuns: RUNS },
    );
  });

  it("cutWithMarker keeps a whole prefix and counts what it left out", () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 300 }), (value, max) => {
        const cut = cutWithMarker(value, max);
        if (cut.more === 0) {
          expect(cut.text).toBe(value);
          return;
        }
        const kept = value.length - cut.more;
        expect(kept).toBeLessThanOrEqual(max);
        expect(cut.text).toBe(`${value.slice(0, kept)}… [${cut.more} chars more]`);
        expect(splitsPair(value, 0, kept)).toBe(false);
      }),
      { numRuns: RUNS },
    );
  });
});

describe("history_pull_part pages, for any part text", () => {
  const visibility = toolVisibility([], []);
  const longText = fc.oneof(
    fc.string({ unit, minLength: 1, maxLength: 3000 }),
    fc.tuple(fc.constantFrom("\u0000", "界", "🦀", "\uD800", '"'), fc.integer({ min: 1000, max: 30_000 })).map(([c, n]) => c.repeat(n)),
  );

  it("reassemble the part exactly, each page under the byte cap and starting where the last ended", () => {
    fc.assert(
      fc.property(longText, fc.integer({ min: 1000, max: 40_000 }), (value, limit) => {
        const view = buildView("ses_p", [{ id: "msg_1", sessionId: "ses_p", role: "assistant", parts: [{ kind: "text", id: "prt_1", text: value }] }], false);
        let offset: number | undefined = 0;
        let whole = "";
        let pages = 0;
        while (offset !== undefined) {
          const page = pullPart(view, { messageId: "msg_1", partId: "prt_1", offset, limit }, visibility);
          expect(page.content.length).toBeGreaterThan(0);
          expect(page.content.length).toBeLessThanOrEqual(limit);
          expect(byteLength(JSON.stringify(page))).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
          if (page.next_offset !== undefined) expect(page.next_offset).toBe(offset + page.content.length);
          whole += page.content;
          offset = page.next_offset;
          pages++;
          expect(pages).toBeLessThanOrEqual(value.length);
        }
        expect(whole).toBe(value);
      }),
      { numRuns: 60 },
    );
  });
});
