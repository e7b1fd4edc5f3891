// The documents' filterable properties, for Orama's `where`: one typed array per property, by
// internal document id, holding each value as a small integer code (0 = none). A where clause
// (a condition per property, all of which must hold: eq, in, nin, the operators the session
// index uses) is compiled to a predicate over those arrays.

import type { SearchableValue } from "@orama/orama";
import { grown } from "../../../util/grow.ts";

/**
 * Per property: "enum" (any values, coded through a table) or "ordinal" (an enum whose values are
 * small non-negative integers the owner numbers densely, each its own code: no table, which for
 * one value per message held as much heap as the typed arrays of the postings' headroom). To
 * Orama an ordinal is an enum with number values.
 */
export type AttributeSchema = Readonly<Record<string, "enum" | "ordinal">>;

type EnumValue = string | number | boolean;

interface EnumColumn {
  kind: "enum";
  codes: Map<EnumValue, number>;
  values: Int32Array;
}

/** Codes are value + 1; `count` is the highest code set. */
interface OrdinalColumn {
  kind: "ordinal";
  count: number;
  values: Int32Array;
}

type Column = EnumColumn | OrdinalColumn;

type DocTest = (doc: number) => boolean;

export class Attributes {
  private readonly columns = new Map<string, Column>();

  constructor(schema: AttributeSchema) {
    for (const [property, type] of Object.entries(schema)) {
      const column: Column =
        type === "enum" ? { kind: "enum", codes: new Map(), values: new Int32Array(256) } : { kind: "ordinal", count: 0, values: new Int32Array(256) };
      this.columns.set(property, column);
    }
  }

  /** Records a document's value of one property (a property it has no value for stays none). */
  set(property: string, doc: number, value: SearchableValue): void {
    const column = this.column(property);
    if (doc >= column.values.length) column.values = grown(column.values, doc + 1);
    if (column.kind === "ordinal") {
      if (!isOrdinal(value)) throw new Error(`attribute ${property} takes an integer from 0`);
      column.values[doc] = value + 1;
      if (value + 1 > column.count) column.count = value + 1;
      return;
    }
    if (!isEnumValue(value)) throw new Error(`attribute ${property} takes an enum value`);
    let code = column.codes.get(value);
    if (code === undefined) {
      code = column.codes.size + 1;
      column.codes.set(value, code);
    }
    column.values[doc] = code;
  }

  /** The documents below `end` that `alive` marks and the where clause accepts. */
  select(where: object, end: number, alive: Uint8Array): Set<number> {
    const test = this.compile(where);
    return new MatchingDocs((doc) => doc >= 0 && doc < end && alive[doc] === 1 && test(doc), end);
  }

  /** Per document, the code of its value of an enum property (equal values, equal codes; 0 = none). */
  codes(property: string): Int32Array {
    return this.column(property).values;
  }

  /** The highest code of an enum property (codes run 1 to this). */
  codeCount(property: string): number {
    const column = this.column(property);
    return column.kind === "enum" ? column.codes.size : column.count;
  }

  /** Heap bytes held by the arrays. */
  bytes(): number {
    let total = 0;
    for (const column of this.columns.values()) total += column.values.byteLength;
    return total;
  }

  /** Drops growth headroom past `docs` documents (after a build). */
  trim(docs: number): void {
    for (const column of this.columns.values()) column.values = column.values.slice(0, docs + 64);
  }

  private column(property: string): Column {
    const column = this.columns.get(property);
    if (!column) throw new Error(`unknown filter property ${property}`);
    return column;
  }

  /** Orama's where semantics for a condition on properties: every property's operators hold. */
  private compile(where: object): DocTest {
    const tests: DocTest[] = [];
    for (const [property, operation] of Object.entries(where)) {
      if (operation !== undefined) tests.push(this.compileProperty(property, operation));
    }
    if (tests.length === 1) return tests[0]!;
    return (doc) => tests.every((test) => test(doc));
  }

  private compileProperty(property: string, operation: unknown): DocTest {
    const column = this.column(property);
    if (typeof operation !== "object" || operation === null) throw new Error(`where.${property} takes an operator object`);
    const tests: DocTest[] = [];
    for (const [operator, operand] of Object.entries(operation)) {
      tests.push(enumTest(column, property, operator, operand));
    }
    if (tests.length === 1) return tests[0]!;
    return (doc) => tests.every((test) => test(doc));
  }
}

/**
 * The set of documents a where clause accepts, answered on demand: `has` tests one document, and
 * the members are enumerated only if asked for. A search asks `has` of the documents holding a
 * query term only; building the whole set would visit every document (docs/architecture.md).
 */
class MatchingDocs extends Set<number> {
  private members: Set<number> | undefined;

  constructor(
    private readonly test: DocTest,
    private readonly end: number,
  ) {
    super();
  }

  override has(doc: number): boolean {
    return this.test(doc);
  }

  override get size(): number {
    return this.all().size;
  }

  override add(): this {
    throw new Error("the documents a where clause matches are read-only");
  }

  override delete(): boolean {
    throw new Error("the documents a where clause matches are read-only");
  }

  override clear(): void {
    throw new Error("the documents a where clause matches are read-only");
  }

  override forEach(visit: (value: number, key: number, set: Set<number>) => void, thisArg?: unknown): void {
    for (const doc of this.all()) visit.call(thisArg, doc, doc, this);
  }

  override keys(): SetIterator<number> {
    return this.all().keys();
  }

  override values(): SetIterator<number> {
    return this.all().values();
  }

  override entries(): SetIterator<[number, number]> {
    return this.all().entries();
  }

  override [Symbol.iterator](): SetIterator<number> {
    return this.all().values();
  }

  private all(): Set<number> {
    if (!this.members) {
      this.members = new Set();
      for (let doc = 0; doc < this.end; doc++) if (this.test(doc)) this.members.add(doc);
    }
    return this.members;
  }
}

function isEnumValue(value: unknown): value is EnumValue {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

function isOrdinal(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value < 0x7fffffff;
}

/** The code of an enum value in the column (undefined: no document has it). */
function codeOf(column: Column, value: unknown): number | undefined {
  if (column.kind === "ordinal") return isOrdinal(value) ? value + 1 : undefined;
  return isEnumValue(value) ? column.codes.get(value) : undefined;
}

function enumTest(column: Column, property: string, operator: string, operand: unknown): DocTest {
  const values = column.values;
  const codesOf = (list: unknown): Set<number> => {
    if (!Array.isArray(list)) throw new Error(`where.${property}.${operator} takes a list`);
    const codes = new Set<number>();
    for (const value of list) {
      const code = codeOf(column, value);
      if (code !== undefined) codes.add(code);
    }
    return codes;
  };
  switch (operator) {
    case "eq": {
      const code = codeOf(column, operand) ?? -1;
      return (doc) => values[doc] === code;
    }
    case "in": {
      const codes = codesOf(operand);
      return (doc) => codes.has(values[doc]!);
    }
    case "nin": {
      const codes = codesOf(operand);
      return (doc) => !codes.has(values[doc]!);
    }
    default:
      throw new Error(`where.${property}: unsupported enum operator ${operator}`);
  }
}
