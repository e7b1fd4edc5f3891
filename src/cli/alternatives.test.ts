import { describe, expect, it } from "vitest";
import { ArgumentError } from "../history/errors.ts";
import { alternativesFlag, phrasingNames, unmatchedLine, withAltErrors } from "./alternatives.ts";
import { parseArgs, UsageError } from "./argv.ts";
import { SEARCH_FLAGS } from "./search-command.ts";

const alts = (...argv: string[]) => alternativesFlag(parseArgs(["rate limiter", ...argv], SEARCH_FLAGS));

describe("--alt", () => {
  it("takes up to three phrasings, in the order given, trimmed as the tool trims them", () => {
    expect(alts()).toBeUndefined();
    expect(alts("--alt", " ERR_RATE_LIMIT ", "--alt=limiter.ts", "--alt", "429 Too Many Requests")).toEqual([
      "ERR_RATE_LIMIT",
      "limiter.ts",
      "429 Too Many Requests",
    ]);
  });

  it("refuses what the tool refuses, naming the flag and which one (counted from 1)", () => {
    expect(() => alts("--alt", "a", "--alt", "b", "--alt", "c", "--alt", "d")).toThrow(
      new UsageError('--alt must be a list of at most 3 strings (got ["a","b","c","d"])'),
    );
    expect(() => alts("--alt", "limiter", "--alt", "  ")).toThrow(new UsageError("--alt 2 must not be empty"));
    expect(() => alts("--alt", "x".repeat(501))).toThrow(new UsageError("--alt 1 is too long: at most 500 characters (got 501)"));
  });

  it("names the flag in the search's own errors on an alternative, and leaves others alone", async () => {
    const noWord = new ArgumentError("alternatives[1] has no searchable word: single letters and punctuation are not indexed");
    await expect(withAltErrors(Promise.reject(noWord))).rejects.toThrow(
      new UsageError("--alt 2 has no searchable word: single letters and punctuation are not indexed"),
    );
    const other = new ArgumentError("query must be a non-empty string");
    await expect(withAltErrors(Promise.reject(other))).rejects.toBe(other);
    await expect(withAltErrors(Promise.resolve(7))).resolves.toBe(7);
  });

  it("says which phrasings found a result, and which found nothing", () => {
    expect(phrasingNames([0, 2])).toBe("query, alt 2");
    expect(unmatchedLine(undefined, ["a"])).toBeUndefined();
    expect(unmatchedLine([1, 3], ["zebracorn", "limiter.ts", "ERR_X"])).toBe('found nothing: alt 1 "zebracorn", alt 3 "ERR_X"');
  });
});
