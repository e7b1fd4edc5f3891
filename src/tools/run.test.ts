import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ArgumentError, HistoryError } from "../history/errors.ts";
import { browseTurnsArgs } from "./view-tools.ts";
import { choice, flag, id, integer, isoDate, text, wordList } from "./params.ts";
import { toolCalls } from "../projection/index.ts";
import { parseArgs, runTool } from "./run.ts";

const schema = z.object({
  num_before: integer(0, 100).optional(),
  message_id: id("msg_").optional(),
  query: text(500).optional(),
  literal: flag().optional(),
  scope: choice(["session", "project"]).optional(),
  type: wordList(["text", "tool", "reasoning"]).optional(),
  after: isoDate().optional(),
});
const parse = (raw: unknown) => parseArgs(schema, raw);
const message = (raw: unknown) => {
  try {
    parse(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(ArgumentError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(raw)}`);
};

describe("parseArgs", () => {
  it("coerces what models send as strings, and nothing looser", () => {
    expect(parse({ num_before: "7", literal: "true" })).toEqual({ num_before: 7, literal: true });
    expect(parse({ num_before: " 12 ", literal: "false" })).toEqual({ num_before: 12, literal: false });
    for (const bad of [-1, 1.5, Number.NaN, "x", true, [], {}, 101, Infinity, "1e3", "0x10", ""]) {
      expect(message({ num_before: bad })).toMatch(/^num_before must be an integer from 0 to 100 \(got /);
    }
    expect(message({ literal: 1 })).toBe("literal must be true or false (got 1)");
  });

  it("names the parameter and its valid values", () => {
    expect(message({ num_before: -1 })).toBe("num_before must be an integer from 0 to 100 (got -1)");
    expect(message({ message_id: "prt_abc" })).toBe('message_id must be an id starting with "msg_" (got "prt_abc")');
    expect(message({ message_id: "msg_../../etc" })).toMatch(/^message_id must be an id starting with "msg_"/);
    expect(message({ scope: "all" })).toBe('scope must be one of session, project (got "all")');
    expect(message({ type: "text|code" })).toBe('type must be a "|"-separated list of text, tool, reasoning (got "text|code")');
    expect(message({ type: "|" })).toMatch(/^type must be a "\|"-separated list/);
    expect(message({ type: ["text"] })).toMatch(/^type must be a "\|"-separated list/);
    expect(message({ after: "yesterday" })).toMatch(/^after must be an ISO 8601 date such as 2026-05-01/);
    expect(message({ after: "2026-13-45" })).toMatch(/^after must be an ISO 8601 date/);
    expect(message({ query: 5 })).toBe("query must be a string of 1 to 500 characters (got 5)");
    expect(message({ query: "   " })).toBe("query must not be empty");
    expect(message({ query: "x".repeat(10_000) })).toBe("query is too long: at most 500 characters (got 10000)");
    expect(() => parseArgs(z.object({ message_id: id("msg_") }), {})).toThrow('message_id is required: an id starting with "msg_"');
  });

  it("parses valid values to what the handlers use", () => {
    expect(parse({ message_id: " msg_abc ", query: " limiter ", scope: "project", type: "tool,text|tool", after: "2026-05-01" })).toEqual({
      message_id: "msg_abc",
      query: "limiter",
      scope: "project",
      type: ["tool", "text"],
      after: Date.parse("2026-05-01"),
    });
  });

  it("treats null as absent, ignores unknown names, and rejects payloads that are not objects", () => {
    expect(parse(undefined)).toEqual({});
    expect(parse(null)).toEqual({});
    expect(parse({ num_before: null, extra: 1 })).toEqual({});
    for (const raw of ["text", [1], 42, true]) expect(message(raw)).toBe("arguments must be a JSON object of named parameters");
  });

  it("accepts an alias for a declared name, and names the alias when its value is bad", () => {
    const turns = z.object(browseTurnsArgs);
    expect(parseArgs(turns, { turn_index: "3" }, { turn_index: "turn_number" })).toEqual({ turn_number: 3 });
    expect(parseArgs(turns, { turn_index: 3, turn_number: 5 }, { turn_index: "turn_number" })).toEqual({ turn_number: 5 });
    expect(() => parseArgs(turns, { turn_index: true }, { turn_index: "turn_number" })).toThrow(/^turn_index must be an integer from 1 to/);
  });
});

describe("runTool", () => {
  it("answers compact JSON and rewraps unexpected failures in one line", async () => {
    expect(await runTool("t", schema, { num_before: "2" }, async (args) => ({ n: args.num_before, empty: [] }))).toBe('{"n":2}');
    const failing = runTool("history_x", schema, {}, async () => {
      throw new TypeError("boom");
    });
    await expect(failing).rejects.toThrow(HistoryError);
    await expect(failing).rejects.toThrow(/^history_x failed unexpectedly \(boom\)/);
  });

  it("counts the call running from start to end, a failing one too (the projection's build thread gives way meanwhile)", async () => {
    const before = toolCalls.running();
    let inside = -1;
    await runTool("t", schema, {}, async () => {
      await Promise.resolve();
      inside = toolCalls.running();
      return {};
    });
    expect(inside).toBe(before + 1);
    await expect(runTool("t", schema, { num_before: -1 }, async () => ({}))).rejects.toThrow(ArgumentError);
    expect(toolCalls.running()).toBe(before);
  });
});
