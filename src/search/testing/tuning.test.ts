import { describe, expect, it } from "vitest";
import { parseQuery } from "../text/query.ts";
import { TUNING } from "../tuning.ts";
import { setTuning } from "./tuning.ts";

describe("setTuning", () => {
  it("changes one value, replaces the objects on its path, and puts everything back", () => {
    const query = TUNING.query;
    const stems = TUNING.query.stems;
    const restore = setTuning({ query: { stems: { on: false } } });
    expect(TUNING.query.stems.on).toBe(false);
    expect(TUNING.query.stems.weight).toBe(stems.weight);
    expect(TUNING.query).not.toBe(query);
    expect(TUNING.query.functionWords).toBe(query.functionWords);
    restore();
    expect(TUNING.query).toBe(query);
    expect(TUNING.query.stems.on).toBe(true);
  });

  it("does not reuse a query parsed under another query tuning", () => {
    const withStems = parseQuery("printed lines").terms.length;
    const restore = setTuning({ query: { stems: { on: false } } });
    const without = parseQuery("printed lines").terms.length;
    restore();
    expect(without).toBeLessThan(withStems);
    expect(parseQuery("printed lines").terms.length).toBe(withStems);
  });
});
