import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderWindow, snippets, type Mark } from "./snippets.ts";

/** The choice spelled out: every window scored against every mark, all windows sorted, taken in order. */
function plainSnippets(text: string, marks: Mark[], chars: number, max: number): string[] {
  if (marks.length === 0) return text.length === 0 ? [] : [renderWindow(text, 0, Math.min(text.length, chars))];
  const sorted = [...marks].sort((a, b) => a.start - b.start);
  const windows = sorted.map((mark) => {
    const span = Math.min(mark.end - mark.start, chars);
    const end = Math.min(text.length, Math.max(0, mark.start - Math.floor((chars - span) / 3)) + chars);
    const start = Math.max(0, end - chars);
    const keys = new Set<number>();
    let score = 0;
    for (const other of sorted) {
      if (other.start < start || other.end > end) continue;
      if (!keys.has(other.key)) score += other.key === -1 ? 5 : 2;
      keys.add(other.key);
      score += 0.1;
    }
    return { start, end, score };
  });
  windows.sort((a, b) => b.score - a.score || a.start - b.start);
  const chosen: Array<{ start: number; end: number }> = [];
  for (const window of windows) {
    if (chosen.length < max && !chosen.some((c) => window.start < c.end && c.start < window.end)) chosen.push(window);
  }
  chosen.sort((a, b) => a.start - b.start);
  return chosen.map((c) => renderWindow(text, c.start, c.end)).filter((s) => s.length > 0);
}

describe("snippets", () => {
  it("chooses the windows the plain all-pairs choice chooses", () => {
    const input = fc.record({
      // Mostly distinct characters, so windows at different places read differently.
      text: fc.string({
        unit: fc.oneof(
          { weight: 1, arbitrary: fc.constantFrom(" ", "\n", "😀") },
          { weight: 6, arbitrary: fc.integer({ min: 33, max: 126 }).map((c) => String.fromCharCode(c)) },
        ),
        minLength: 60,
        maxLength: 400,
        size: "max",
      }),
      chars: fc.integer({ min: 40, max: 120 }),
      max: fc.integer({ min: 1, max: 6 }),
      raw: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 30 }), fc.integer({ min: -1, max: 4 })), { minLength: 1, maxLength: 40, size: "max" }),
    });
    fc.assert(
      fc.property(input, ({ text, chars, max, raw }) => {
        const marks = raw.map(([at, length, key]) => {
          const start = at % text.length;
          return { start, end: Math.min(text.length, start + length), key };
        });
        expect(snippets(text, [...marks], chars, max)).toEqual(plainSnippets(text, marks, chars, max));
      }),
      { numRuns: 2000 },
    );
  });

  it("prefers the window covering more distinct terms, and the phrase most", () => {
    const text = `${"x".repeat(300)} alpha beta ${"y".repeat(300)} alpha ${"z".repeat(300)} the whole phrase`;
    const at = (word: string, from = 0) => text.indexOf(word, from);
    const marks: Mark[] = [
      { start: at("alpha", 600), end: at("alpha", 600) + 5, key: 0 },
      { start: at("alpha"), end: at("alpha") + 5, key: 0 },
      { start: at("beta"), end: at("beta") + 4, key: 1 },
      { start: at("the whole"), end: at("the whole") + 16, key: -1 },
    ];
    const [first, second] = snippets(text, marks, 60, 2);
    expect(first).toContain("alpha beta");
    expect(second).toContain("the whole phrase");
    expect(snippets(text, marks, 60, 1)).toEqual([expect.stringContaining("the whole phrase")]);
  });
});

describe("snippets of a tool call and its output", () => {
  const call = 'bash(command="grep -rn LIMITER_REDIS_URL src")';
  const output = `${"src/app.ts:3: import config\n".repeat(4)}src/config.ts:12: const url = process.env.LIMITER_REDIS_URL ?? "redis://localhost"`;
  const text = `${call}\n---\n${output}`;
  const marks = (): Mark[] => [...text.matchAll(/LIMITER_REDIS_URL/g)].map((m) => ({ start: m.index, end: m.index + 17, key: 0 }));

  it("cuts the best window from the output, not from the call that repeats the words", () => {
    const [first] = snippets(text, marks(), 60, 1, call.length + 5);
    expect(first).toContain("process.env.LIMITER_REDIS_URL");
    expect(first).not.toContain("grep");
    // Without the output's start, the tie goes to the call, the earlier window.
    expect(snippets(text, marks(), 60, 1)[0]).toContain("grep");
  });

  it("still shows the call when only the call holds a word the output lacks", () => {
    const both: Mark[] = [...marks(), { start: text.indexOf("grep"), end: text.indexOf("grep") + 4, key: 1 }];
    expect(snippets(text, both, 60, 1, call.length + 5)[0]).toContain("grep");
  });
});
