import { describe, expect, it } from "vitest";
import { ArgumentError } from "../history/errors.ts";
import { asArgs, optionalBool, optionalDate, optionalEnum, optionalEnumList, optionalId, optionalInt, requiredId, requiredString } from "./args.ts";

describe("argument validation", () => {
  it("names the parameter and the valid range", () => {
    const rule = { min: 0, max: 100, default: 0 };
    expect(optionalInt({}, "num_before", rule)).toEqual({ value: 0 });
    expect(optionalInt({ num_before: "7" }, "num_before", rule)).toEqual({ value: 7 });
    for (const bad of [-1, 1.5, Number.NaN, "x", true, [], {}, 101, Infinity, "1e3"]) {
      expect(() => optionalInt({ num_before: bad }, "num_before", rule)).toThrow(/^num_before must be an integer from 0 to 100/);
    }
    expect(optionalInt({ limit: 500 }, "limit", { min: 1, max: 50, clamp: true })).toEqual({ value: 50, clampedFrom: 500 });
  });

  it("checks ids by prefix and shape, and never echoes a huge value", () => {
    expect(requiredId({ message_id: " msg_abc " }, "message_id", "msg_")).toBe("msg_abc");
    expect(() => requiredId({}, "message_id", "msg_")).toThrow(/message_id is required/);
    expect(() => requiredId({ message_id: "prt_abc" }, "message_id", "msg_")).toThrow(/must be an id starting with "msg_"/);
    expect(() => optionalId({ session_id: "ses_../../etc" }, "session_id", "ses_")).toThrow(ArgumentError);
    const huge = "x".repeat(10_000);
    try {
      requiredString({ query: huge }, "query", { maxLength: 500 });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toBe("query is too long: at most 500 characters (got 10000)");
    }
    expect(() => requiredString({ query: "   " }, "query", { maxLength: 500 })).toThrow(/must not be empty/);
  });

  it("parses booleans, enums, pipe lists and ISO dates", () => {
    expect(optionalBool({ literal: "true" }, "literal", false)).toBe(true);
    expect(() => optionalBool({ literal: 1 }, "literal", false)).toThrow(/literal must be true or false/);
    expect(optionalEnum({ scope: "project" }, "scope", ["session", "project"], "session")).toBe("project");
    expect(() => optionalEnum({ scope: "all" }, "scope", ["session", "project"], "session")).toThrow(/scope must be one of session, project/);
    expect(optionalEnumList({ type: "text|tool" }, "type", ["text", "tool", "reasoning"], ["text"])).toEqual(["text", "tool"]);
    expect(optionalEnumList({ type: ["reasoning"] }, "type", ["text", "tool", "reasoning"], ["text"])).toEqual(["reasoning"]);
    expect(() => optionalEnumList({ type: "text|code" }, "type", ["text", "tool", "reasoning"], ["text"])).toThrow(/type must be a "\|"-separated list/);
    expect(() => optionalEnumList({ type: "|" }, "type", ["text", "tool"], ["text"])).toThrow(/at least one/);
    expect(optionalDate({ after: "2026-05-01" }, "after")).toBe(Date.parse("2026-05-01"));
    expect(optionalDate({ after: "2026-05-01T10:00:00Z" }, "after")).toBe(Date.parse("2026-05-01T10:00:00Z"));
    expect(() => optionalDate({ after: "yesterday" }, "after")).toThrow(/after must be an ISO 8601 date/);
    expect(() => optionalDate({ after: "2026-13-45" }, "after")).toThrow(/after must be an ISO 8601 date/);
  });

  it("rejects argument payloads that are not objects", () => {
    expect(asArgs(undefined)).toEqual({});
    expect(() => asArgs("text")).toThrow(/arguments must be a JSON object/);
    expect(() => asArgs([1])).toThrow(/arguments must be a JSON object/);
  });
});
