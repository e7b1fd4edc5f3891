import { describe, expect, it } from "vitest";
import { FIELDS, INPUT_FIELD } from "../text/documents.ts";
import { setTuning } from "../testing/tuning.ts";
import { TUNING } from "../tuning.ts";
import { emptyStats, fieldFactor, fieldNorms, queryWeights, scoreCounts, termScore } from "./bm25.ts";

const TEXT = FIELDS.indexOf("text");
const OUTPUT = FIELDS.indexOf("output");

/** Statistics of one term held by `df` of `docs` documents, with text chunks of 100 code units and outputs of 1,000 on average. */
function stats(docs = 100, df = 5) {
  const found = emptyStats(1);
  found.docs = docs;
  found.df[0] = df;
  found.fieldDocs[TEXT] = 10;
  found.fieldLength[TEXT] = 1_000;
  found.fieldDocs[OUTPUT] = 10;
  found.fieldLength[OUTPUT] = 10_000;
  found.fieldDocs[INPUT_FIELD] = 10;
  found.fieldLength[INPUT_FIELD] = 500;
  return found;
}

describe("BM25F", () => {
  it("judges a field's length against that field's average, not the collection's", () => {
    const norms = fieldNorms(stats());
    const { text, output } = TUNING.bm25.fields;
    // A text and an output each of its own field's average length count their weight alike.
    expect(fieldFactor(norms, TEXT, 100)).toBeCloseTo(text.weight, 12);
    expect(fieldFactor(norms, OUTPUT, 1_000)).toBeCloseTo(output.weight, 12);
    // A text as long as the average output is long for a text.
    expect(fieldFactor(norms, TEXT, 1_000)).toBeCloseTo(text.weight / (1 - text.b + text.b * 10), 12);
  });

  it("weighs each field's counts, then saturates their sum once per term", () => {
    const found = stats();
    const weights = queryWeights(found, [{ weight: 1, group: 0 }]);
    const norms = fieldNorms(found);
    const doc = { field: OUTPUT, body: 1_000, input: 50 };
    const inBody = scoreCounts([1], undefined, doc, weights, norms);
    const inInput = scoreCounts([0], [1], doc, weights, norms);
    const inBoth = scoreCounts([1], [1], doc, weights, norms);
    const weighted = fieldFactor(norms, OUTPUT, 1_000) + fieldFactor(norms, INPUT_FIELD, 50);
    expect(inBoth).toBeCloseTo(termScore(weighted, weights.idfs[0]!), 12);
    expect(inBoth).toBeLessThan(inBody + inInput);
    // The input's weight is what its occurrence counts against the output's.
    const restore = setTuning({ bm25: { fields: { input: { weight: 1 }, output: { weight: 1 } } } });
    try {
      const alike = fieldNorms(found);
      expect(scoreCounts([0], [1], doc, weights, alike)).toBeCloseTo(scoreCounts([1], undefined, { ...doc, body: 50 * 20 }, weights, alike), 12);
    } finally {
      restore();
    }
  });

  it("with b 0 ignores length, and an empty collection's field averages stay finite", () => {
    const restore = setTuning({ bm25: { fields: { text: { b: 0 } } } });
    try {
      const norms = fieldNorms(emptyStats(0));
      expect(fieldFactor(norms, TEXT, 5_000)).toBe(TUNING.bm25.fields.text.weight);
      expect(Number.isFinite(fieldFactor(norms, OUTPUT, 5_000))).toBe(true);
    } finally {
      restore();
    }
  });
});
