import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TermTable } from "./term-table.ts";

describe("the term table's letter terms", () => {
  it("visit every a–z term of the lengths asked, in id order, as terms keep being added between lookups", () => {
    const term = fc.string({ unit: fc.constantFrom("a", "b", "z", "0", "."), minLength: 1, maxLength: 7 });
    const lengths = fc.tuple(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 8 }));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(term, { maxLength: 20 }), lengths), { minLength: 1, maxLength: 6 }), (batches) => {
        const table = new TermTable();
        const added: string[] = [];
        for (const [terms, [min, max]] of batches) {
          for (const t of terms) {
            if (table.find(t, 0, t.length) >= 0) continue;
            table.intern(t, 0, t.length);
            added.push(t);
          }
          const seen: Array<[number, string]> = [];
          table.forEachLetterTerm(min, max, (chars, start, length, id) => seen.push([id, String.fromCharCode(...chars.subarray(start, start + length))]));
          const expected = added.flatMap((t, id): Array<[number, string]> => (/^[a-z]+$/.test(t) && t.length >= min && t.length <= max ? [[id, t]] : []));
          expect(seen).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });
});
