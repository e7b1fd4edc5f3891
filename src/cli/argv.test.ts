import { describe, expect, it } from "vitest";
import { choiceFlag, intFlag, parseArgs, UsageError } from "./argv.ts";

const spec = { values: ["limit", "scope"], switches: ["literal"] };

describe("parseArgs", () => {
  it("takes positionals, values in both spellings, switches and the common flags", () => {
    const parsed = parseArgs(["rate", "--limit", "5", "limiter", "--scope=global", "--literal", "--json", "-h"], spec);
    expect(parsed.positionals).toEqual(["rate", "limiter"]);
    expect(Object.fromEntries(parsed.values)).toEqual({ limit: "5", scope: "global" });
    expect([...parsed.switches].sort()).toEqual(["help", "json", "literal"]);
  });

  it("keeps everything after -- as positionals, so a query may start with dashes", () => {
    expect(parseArgs(["--", "--limit", "x"], spec).positionals).toEqual(["--limit", "x"]);
  });

  it("names the flag that is unknown, missing its value, or given one it does not take", () => {
    expect(() => parseArgs(["--colour"], spec)).toThrow(new UsageError("unknown option --colour"));
    expect(() => parseArgs(["--limit"], spec)).toThrow("--limit needs a value");
    expect(() => parseArgs(["--limit", "--json"], spec)).toThrow("--limit needs a value");
    expect(() => parseArgs(["--literal=yes"], spec)).toThrow("--literal takes no value");
  });

  it("checks integer and choice flags against their range", () => {
    const parsed = parseArgs(["--limit", "0", "--scope", "world"], spec);
    expect(() => intFlag(parsed, "limit", 1, 50)).toThrow("--limit must be an integer from 1 to 50 (got 0)");
    expect(() => choiceFlag(parsed, "scope", ["session", "project", "global"])).toThrow("--scope must be one of session, project, global (got world)");
    expect(intFlag(parseArgs(["--limit", "7"], spec), "limit", 1, 50)).toBe(7);
    expect(intFlag(parseArgs([], spec), "limit", 1, 50)).toBeUndefined();
  });
});
