import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runInBun } from "../store/testing/run-in-bun.ts";
import { choiceFlag, intFlag, parseArgs, UsageError } from "./argv.ts";

const spec = { values: ["limit", "scope"], switches: ["literal"] };

/** Each bad argument list and the usage error it gives, in Node and in the host's Bun alike. */
const BAD: Record<string, string> = {
  "--colour": "unknown option --colour",
  "-x": "unknown option -x",
  "-hx": "unknown option -x",
  "--limit": "--limit needs a value",
  "--limit --json": "--limit needs a value",
  "--limit -5": "--limit needs a value (one starting with - is written --limit=-…)",
  "--literal=yes": "--literal takes no value",
};

describe("parseArgs", () => {
  it("takes positionals, values in both spellings, switches and the common flags", () => {
    const parsed = parseArgs(["rate", "--limit", "5", "limiter", "--scope=global", "--literal", "--json", "-h"], spec);
    expect(parsed.positionals).toEqual(["rate", "limiter"]);
    expect(Object.fromEntries(parsed.values)).toEqual({ limit: "5", scope: "global" });
    expect([...parsed.switches].sort()).toEqual(["help", "json", "literal"]);
  });

  it("keeps every value of a repeated flag, in order, and none when it is not given", () => {
    const repeated = { values: ["alt", "limit"], switches: [], repeated: ["alt"] };
    const parsed = parseArgs(["--alt", "one", "q", "--alt=two", "--limit", "3"], repeated);
    expect(parsed.lists.get("alt")).toEqual(["one", "two"]);
    expect(parsed.values.get("limit")).toBe("3");
    expect(parsed.values.has("alt")).toBe(false);
    expect(parseArgs(["q"], repeated).lists.size).toBe(0);
  });

  it("keeps everything after -- as positionals, so a query may start with dashes", () => {
    expect(parseArgs(["--", "--limit", "x"], spec).positionals).toEqual(["--limit", "x"]);
    expect(parseArgs(["--limit=-5"], spec).values.get("limit")).toBe("-5");
  });

  it("names the flag that is unknown, missing its value, or given one it does not take", () => {
    expect(() => parseArgs(["--colour"], spec)).toThrow(new UsageError("unknown option --colour"));
    for (const [argv, message] of Object.entries(BAD)) {
      expect(() => parseArgs(argv.split(" "), spec), argv).toThrow(UsageError);
      expect(() => parseArgs(argv.split(" "), spec), argv).toThrow(message);
    }
  });

  it("gives the same usage errors in the host's Bun, where the command line runs", () => {
    const module = fileURLToPath(new URL("./testing/usage-errors.bun.ts", import.meta.url));
    const errors = runInBun<Record<string, string>>(module, { spec, cases: Object.keys(BAD).map((argv) => argv.split(" ")) });
    for (const [argv, message] of Object.entries(BAD)) expect(errors[argv], argv).toContain(`UsageError: ${message}`);
  });

  it("checks integer and choice flags against their range", () => {
    const parsed = parseArgs(["--limit", "0", "--scope", "world"], spec);
    expect(() => intFlag(parsed, "limit", 1, 50)).toThrow("--limit must be an integer from 1 to 50 (got 0)");
    expect(() => choiceFlag(parsed, "scope", ["session", "project", "global"])).toThrow("--scope must be one of session, project, global (got world)");
    expect(intFlag(parseArgs(["--limit", "7"], spec), "limit", 1, 50)).toBe(7);
    expect(intFlag(parseArgs([], spec), "limit", 1, 50)).toBeUndefined();
  });
});
