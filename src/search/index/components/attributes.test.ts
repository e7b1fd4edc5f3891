import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Attributes } from "./attributes.ts";

const SCHEMA = { kind: "enum", size: "number" } as const;
const KINDS = ["a", "b", "c"];

interface Row {
  kind?: string;
  size?: number;
  alive: boolean;
}

function load(rows: Row[]): { attributes: Attributes; alive: Uint8Array } {
  const attributes = new Attributes(SCHEMA);
  const alive = new Uint8Array(rows.length);
  rows.forEach((row, doc) => {
    if (row.kind !== undefined) attributes.set("kind", doc, row.kind);
    if (row.size !== undefined) attributes.set("size", doc, row.size);
    alive[doc] = row.alive ? 1 : 0;
  });
  return { attributes, alive };
}

const row = fc.record({ kind: fc.option(fc.constantFrom(...KINDS), { nil: undefined }), size: fc.option(fc.integer({ min: 0, max: 9 }), { nil: undefined }), alive: fc.boolean() });

describe("where clauses over attributes", () => {
  it("select exactly the live documents each operator accepts, as Orama defines them", () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 40 }), fc.constantFrom(...KINDS), fc.subarray(KINDS), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 9 }), (rows, kind, kinds, x, y) => {
        const { attributes, alive } = load(rows);
        const cases: Array<[object, (r: Row) => boolean]> = [
          [{ kind: { eq: kind } }, (r) => r.kind === kind],
          [{ kind: { in: kinds } }, (r) => r.kind !== undefined && kinds.includes(r.kind)],
          [{ kind: { nin: kinds } }, (r) => r.kind === undefined || !kinds.includes(r.kind)],
          [{ size: { gt: x } }, (r) => r.size !== undefined && r.size > x],
          [{ size: { lte: x } }, (r) => r.size !== undefined && r.size <= x],
          [{ size: { between: [x, y] } }, (r) => r.size !== undefined && r.size >= x && r.size <= y],
          [{ and: [{ kind: { eq: kind } }, { size: { lt: y } }] }, (r) => r.kind === kind && r.size !== undefined && r.size < y],
          [{ or: [{ kind: { eq: kind } }, { size: { eq: x } }] }, (r) => r.kind === kind || r.size === x],
          [{ not: { kind: { in: kinds } } }, (r) => r.kind === undefined || !kinds.includes(r.kind)],
          [{ kind: { in: kinds }, size: { gte: x } }, (r) => r.kind !== undefined && kinds.includes(r.kind) && r.size !== undefined && r.size >= x],
        ];
        for (const [where, accepts] of cases) {
          const expected = rows.flatMap((r, doc) => (r.alive && accepts(r) ? [doc] : []));
          const selected = attributes.select(where, rows.length, alive);
          expect([...selected]).toEqual(expected);
          expect(selected.size).toBe(expected.length);
          for (let doc = -1; doc <= rows.length; doc++) expect(selected.has(doc)).toBe(expected.includes(doc));
        }
      }),
    );
  });

  it("refuse unknown properties and operators, and changes to a selection", () => {
    const { attributes, alive } = load([{ kind: "a", size: 1, alive: true }]);
    expect(() => attributes.select({ colour: { eq: "red" } }, 1, alive)).toThrow(/unknown filter property colour/);
    expect(() => attributes.select({ kind: { gt: 1 } }, 1, alive)).toThrow(/unsupported enum operator gt/);
    expect(() => attributes.select({ size: { in: [1] } }, 1, alive)).toThrow(/takes a number/);
    expect(() => attributes.select({ kind: { eq: "a" } }, 1, alive).add(0)).toThrow(/read-only/);
  });
});
