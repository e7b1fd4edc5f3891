import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countTerms, termFinders } from "../scan/scan.ts";
import { parseQuery } from "../text/query.ts";
import { compoundBoost, compoundBound } from "./compound.ts";
import { chunkBoostHeld } from "./rank.ts";
import { DEFAULT_TUNING } from "../tuning.ts";

// The ceilings ranking reads from a chunk's term counts alone (rank.ts's groupBoostMost) must hold
// for every text: a candidate is ranked unread on them. Words with other forms, identifier parts,
// paths, function words and CJK, joined as code and prose join them.
const WORDS = [
  "deploy",
  "deployed",
  "deploying",
  "token",
  "tokens",
  "the",
  "of",
  "run",
  "runs",
  "fail",
  "failed",
  "debugOutput",
  "debug",
  "output",
  "src/deploy/run.py",
  "run.py",
  "__init__.py",
  "init",
  "git",
  "add",
  "USE_TZ",
  "use",
  "tz",
  "make_aware",
  "values_list",
  "QuerySet.filter",
  "queryset",
  "filter",
  "optimizer.py",
  "u.Unit",
  "unit",
  "v3.6.9",
  "3.6",
  "部署",
  "失败",
];
const JOINERS = [" ", " ", " ", ".", "/", "_", "-", "", "\n", ", "];

const text = fc
  .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...JOINERS), fc.boolean()), { maxLength: 40 })
  .map((pieces) => pieces.map(([word, joiner, upper]) => (upper ? word.toUpperCase() : word) + joiner).join(""));
const query = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }).map((words) => words.join(" "));

function tfsOf(parsed: ReturnType<typeof parseQuery>, chunk: string): number[] {
  return countTerms(chunk, termFinders(parsed.terms), undefined) ?? parsed.terms.map(() => 0);
}

describe("boost ceilings from term counts", () => {
  it("are never below the boosts the chunk's text gets", () => {
    fc.assert(
      fc.property(query, text, (q, chunk) => {
        const parsed = parseQuery(q, DEFAULT_TUNING);
        const tfs = tfsOf(parsed, chunk);
        expect(compoundBoost(parsed, chunk)).toBeLessThanOrEqual(compoundBound(parsed, tfs));
      }),
      { numRuns: 3000 },
    );
    // Found by it (seed 1213895862): the compound's word kept only its humps, `queryset` went to the first word.
    const taken = parseQuery("queryset filter QuerySet.filter deploy", DEFAULT_TUNING);
    expect(compoundBound(taken, tfsOf(taken, "QUERYSET.FILTER "))).toBe(compoundBoost(taken, "QUERYSET.FILTER "));
  });

  it("give no boost to a chunk without the words a boost looks for", () => {
    // Words alone: no boost looks for them, however many a chunk holds.
    const words = parseQuery("deploy token fail", DEFAULT_TUNING);
    expect(chunkBoostHeld(words, { type: "text" }, tfsOf(words, "deploy failed: token expired"))).toBe(1);
    const path = parseQuery("src/deploy/run.py token", DEFAULT_TUNING);
    expect(compoundBound(path, tfsOf(path, "the token"))).toBe(1);
    expect(compoundBound(path, tfsOf(path, "in src/deploy/run.py"))).toBe(DEFAULT_TUNING.compounds.boost);
    // A compound's words that stand in it alone must all be there: `use` without `tz` is not `USE_TZ`.
    const setting = parseQuery("USE_TZ", DEFAULT_TUNING);
    expect(compoundBound(setting, tfsOf(setting, "we use the default"))).toBe(1);
    expect(compoundBound(setting, tfsOf(setting, "set use_tz and the tz"))).toBe(DEFAULT_TUNING.compounds.boost);
  });
});
