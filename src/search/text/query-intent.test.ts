import { describe, expect, it } from "vitest";
import { parseQuery } from "./query.ts";
import { DEFAULT_TUNING } from "../tuning.ts";

const intentOf = (query: string) => {
  const intent = parseQuery(query, DEFAULT_TUNING).intent;
  return intent && { command: intent.command, change: intent.change };
};

describe("query intent", () => {
  it("reads a command question and a change question from their wording", () => {
    expect(intentOf("how did we run dialyzer")).toEqual({ command: true, change: false });
    expect(intentOf("what command listed the overrides")).toEqual({ command: true, change: false });
    expect(intentOf("what did we change in sklearn/compose/_column_transformer.py")).toEqual({ command: false, change: true });
    expect(intentOf("the sed edit that dropped __init__.py")).toEqual({ command: false, change: true });
    // A script is written and run: either kind of call answers.
    expect(intentOf("script checking the POST body")).toEqual({ command: true, change: true });
  });

  it("has none for a query without those words, or with them only inside a path or name", () => {
    for (const query of ["dialyzer false positive", "run_tests.py", "scripts/fix.sh", "fixture_change", "RunTests"]) {
      expect([query, intentOf(query)]).toEqual([query, undefined]);
    }
  });

  it("names the words that state the intent, so they are not content a call must hold", () => {
    const parsed = parseQuery("how did we run dialyzer", DEFAULT_TUNING);
    const run = parsed.terms.find((term) => term.token === "run")!;
    expect(parsed.intent?.groups).toEqual([run.group]);
  });
});
