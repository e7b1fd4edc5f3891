import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Attributes } from "./attributes.ts";

const SCHEMA = { kind: "enum", slot: "ordinal" } as const;
const KINDS = ["a", "b", "c"];

interface Row {
  kind?: string;
  slot?: number;
  alive: boolean;
}

function load(rows: Row[]): { attributes: Attributes; alive: Uint8Array } {
  const attributes = new Attributes(SCHEMA);
  const alive = new Uint8Array(rows.length);
  rows.forEach((row, doc) => {
    if (row.kind !== undefined) attributes.set("kind", doc, row.kind);
    if (row.slot !== undefined) attributes.set("slot", doc, row.slot);
    alive[doc] = row.alive ? 1 : 0;
  });
  return { attributes, alive };
}

const row = fc.record({
  kind: fc.option(fc.constantFrom(...KINDS), { nil: undefined }),
  slot: fc.option(fc.integer({ min: 0, max: 9 }), { nil: undefined }),
  alive: fc.boolean(),
});

describe("where clauses over attributes", () => {
  it("select exactly the live documents each operator accepts, every property's condition holding, as Orama defines them", () => {
    fc.assert(
      fc.property(
        fc.array(row, { maxLength: 40 }),
        fc.constantFrom(...KINDS),
        fc.subarray(KINDS),
        fc.integer({ min: 0, max: 9 }),
        fc.subarray([0, 3, 5, 9, 12]),
        (rows, kind, kinds, x, slots) => {
          const { attributes, alive } = load(rows);
          const cases: Array<[object, (r: Row) => boolean]> = [
            [{ kind: { eq: kind } }, (r) => r.kind === kind],
            [{ kind: { in: kinds } }, (r) => r.kind !== undefined && kinds.includes(r.kind)],
            [{ kind: { nin: kinds } }, (r) => r.kind === undefined || !kinds.includes(r.kind)],
            [
              { kind: { in: kinds }, slot: { nin: slots } },
              (r) => r.kind !== undefined && kinds.includes(r.kind) && (r.slot === undefined || !slots.includes(r.slot)),
            ],
            [{ kind: { eq: kind }, slot: { eq: x } }, (r) => r.kind === kind && r.slot === x],
            [{ slot: { eq: x } }, (r) => r.slot === x],
            [{ slot: { in: slots } }, (r) => r.slot !== undefined && slots.includes(r.slot)],
            [{ slot: { nin: slots } }, (r) => r.slot === undefined || !slots.includes(r.slot)],
          ];
          for (const [where, accepts] of cases) {
            const expected = rows.flatMap((r, doc) => (r.alive && accepts(r) ? [doc] : []));
            const selected = attributes.select(where, rows.length, alive);
            expect([...selected]).toEqual(expected);
            expect(selected.size).toBe(expected.length);
            for (let doc = -1; doc <= rows.length; doc++) expect(selected.has(doc)).toBe(expected.includes(doc));
          }
        },
      ),
    );
  });

  it("code an ordinal by its value, with no table: equal values share a code and none is 0", () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 40 }), (rows) => {
        const { attributes } = load(rows);
        const codes = attributes.codes("slot");
        const highest = Math.max(0, ...rows.map((r) => (r.slot === undefined ? 0 : r.slot + 1)));
        expect(attributes.codeCount("slot")).toBe(highest);
        rows.forEach((r, doc) => {
          expect(codes[doc]).toBe(r.slot === undefined ? 0 : r.slot + 1);
          expect(codes[doc]).toBeLessThanOrEqual(highest);
        });
      }),
    );
    expect(() => new Attributes(SCHEMA).set("slot", 0, "a")).toThrow(/integer from 0/);
    expect(() => new Attributes(SCHEMA).set("slot", 0, -1)).toThrow(/integer from 0/);
  });

  it("refuse unknown properties and operators, and changes to a selection", () => {
    const { attributes, alive } = load([{ kind: "a", slot: 1, alive: true }]);
    expect(() => attributes.select({ colour: { eq: "red" } }, 1, alive)).toThrow(/unknown filter property colour/);
    expect(() => attributes.select({ kind: { gt: 1 } }, 1, alive)).toThrow(/unsupported enum operator gt/);
    expect(() => attributes.select({ or: [{ kind: { eq: "a" } }] }, 1, alive)).toThrow(/unknown filter property or/);
    expect(() => attributes.select({ slot: { in: 1 } }, 1, alive)).toThrow(/takes a list/);
    expect(() => attributes.select({ kind: { eq: "a" } }, 1, alive).add(0)).toThrow(/read-only/);
  });
});
