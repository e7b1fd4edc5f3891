import { describe, expect, it } from "vitest";
import { parseQuery } from "../text/query.ts";
import { compoundBoost, holdsCompound } from "./compound.ts";
import { DEFAULT_TUNING } from "../tuning.ts";

const holds = (text: string, compound: string) => holdsCompound(text, text.toLowerCase(), compound);

describe("compound evidence", () => {
  it("finds a compound whole, as the end of a longer path, never inside a longer name", () => {
    expect(holds("M src/_pytest/python.py", "python.py")).toBe(true);
    expect(holds("see /testbed/Django/db/models/fields/related.py:1180", "django/db/models/fields/related.py")).toBe(true);
    expect(holds("foobar/__init__.py", "__init__.py")).toBe(true);
    expect(holds("lib/web/liveview_otel.ex", "otel.ex")).toBe(false);
    expect(holds("related.pyc", "related.py")).toBe(false);
    expect(holds("django db models fields related py", "django/db/models/fields/related.py")).toBe(false);
  });

  it("boosts a chunk by the share of the query's compounds it holds whole", () => {
    const parsed = parseQuery("sed dropped __init__.py from python_files", DEFAULT_TUNING);
    expect(compoundBoost(parsed, "getini('python_files') + ['__init__.py']")).toBeCloseTo(DEFAULT_TUNING.compounds.boost);
    expect(compoundBoost(parsed, "the python_files setting")).toBeCloseTo(1 + (DEFAULT_TUNING.compounds.boost - 1) / 2);
    expect(compoundBoost(parsed, "python files and init py")).toBe(1);
  });
});
