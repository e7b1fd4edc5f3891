import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TermTable } from "./term-table.ts";

describe("the term table's decimal terms", () => {
  it("visit every longer decimal beginning with a prefix, in id order, as terms keep being added between lookups", () => {
    const term = fc.string({ unit: fc.constantFrom("0", "3", "7", ".", "a"), minLength: 1, maxLength: 7 });
    const prefix = fc.constantFrom("0.3", "3.0", "0.37", "7.7", "3.33");
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(term, { maxLength: 20 }), prefix), { minLength: 1, maxLength: 6 }), (batches) => {
        const table = new TermTable();
        const added: string[] = [];
        for (const [terms, start] of batches) {
          for (const t of terms) {
            if (table.find(t, 0, t.length) >= 0) continue;
            table.intern(t, 0, t.length);
            added.push(t);
          }
          const seen: Array<[number, number]> = [];
          table.forEachLongerDecimal(start, (id, next) => seen.push([id, next]));
          const expected = added.flatMap(
            (t, id): Array<[number, number]> =>
              /^\d+\.\d+$/.test(t) && t.length > start.length && t.startsWith(start) ? [[id, t.charCodeAt(start.length) - 48]] : [],
          );
          expect(seen).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });
});
