import { describe, expect, it } from "vitest";
import { defaultConfig } from "../config/schema.ts";
import { toolVisibility } from "../history/tool-visibility.ts";
import { createSearchService } from "../search/api.ts";
import { textMessage, toolPart } from "../history/testing/messages.ts";
import { MemorySource } from "../store/testing/memory-source.ts";
import { ViewCache } from "../history/view-cache.ts";
import type { ToolDeps } from "./deps.ts";
import { createHistorySearchTool } from "./search.ts";
import { createHistorySessionsTool } from "./sessions.ts";

const T0 = Date.UTC(2025, 0, 1);

function setup() {
  const source = new MemorySource();
  const own = [
    textMessage("ses_own", "user", "where is the retry policy defined?", T0),
    textMessage("ses_own", "assistant", "in src/net/retryPolicy.ts", T0 + 1000, [
      toolPart("grep", { pattern: "retryPolicy" }, "src/net/retryPolicy.ts:3: export const retryPolicy = { attempts: 5 }"),
    ]),
  ];
  source.add({ id: "ses_own", title: "retries", created: T0, updated: T0 + 2000 }, own);
  const other = [textMessage("ses_old", "user", "the pelican service timeout is 30s", T0 - 5000)];
  source.add({ id: "ses_old", title: "timeouts", created: T0 - 9000, updated: T0 - 5000 }, other);
  source.add({ id: "ses_child", title: "child", parentId: "ses_old", created: T0 - 8000, updated: T0 - 7000 }, [
    textMessage("ses_child", "user", "sub task about pelican", T0 - 8000),
  ]);
  const config = defaultConfig();
  const visibility = toolVisibility([], []);
  const deps: ToolDeps = { config: () => config, visibility: () => visibility, source, views: new ViewCache(), directory: "/p" };
  const service = createSearchService({ source, config: () => config, visibility: () => visibility });
  const search = createHistorySearchTool(deps, service);
  const sessions = createHistorySessionsTool(deps, service);
  const ctx = { sessionID: "ses_other_caller" } as never;
  return { own, other, search, sessions, ctx };
}

describe("history_search", () => {
  it("answers compact snake_case JSON", async () => {
    const { own, search, ctx } = setup();
    const out = await search.execute({ query: "retry policy", session_id: "ses_own" } as never, ctx);
    const parsed = JSON.parse(out as string);
    expect(parsed.messages[0].message_id).toBe(own[1]!.id);
    expect(parsed.messages[0].role).toBe("assistant");
    expect(parsed.messages[0].turn_number).toBe(1);
    expect(parsed.messages[0].time).toBe(new Date(T0 + 1000).toISOString());
    expect(parsed.messages[0].hits.some((h: { type: string; tool_name?: string }) => h.type === "tool" && h.tool_name === "grep")).toBe(true);
    expect(parsed.messages[0].session_id).toBeUndefined();
    expect(out).not.toContain("\n  ");
  });

  it("names sessions in project scope", async () => {
    const { other, search, ctx } = setup();
    const out = JSON.parse((await search.execute({ query: "pelican timeout", scope: "project" } as never, ctx)) as string);
    expect(out.messages[0].session_id).toBe("ses_old");
    expect(out.messages[0].message_id).toBe(other[0]!.id);
  });

  it("answers a hint when nothing matches", async () => {
    const { search, ctx } = setup();
    const out = JSON.parse((await search.execute({ query: "zeppelin", session_id: "ses_own" } as never, ctx)) as string);
    expect(out.messages).toBeUndefined();
    expect(out.hint).toMatch(/scope="project"/);
    expect(out.hint).not.toMatch(/in your context/);
  });

  it("leaves out the caller's live turn in project scope, and says so when nothing else matches", async () => {
    const { search } = setup();
    // ses_own's only turn is the one asking: all of it is in the caller's context.
    const out = JSON.parse((await search.execute({ query: "retry policy", scope: "project" } as never, { sessionID: "ses_own" } as never)) as string);
    expect(out.messages).toBeUndefined();
    expect(out.hint).toMatch(/scope="global"/);
    expect(out.hint).toMatch(/messages still in your context are not searched in your own session/);
  });

  it("validates every argument with its range", async () => {
    const { search, ctx } = setup();
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{}, /query is required/],
      [{ query: 5 }, /query must be a string/],
      [{ query: "x".repeat(501) }, /at most 500/],
      [{ query: "ok", limit: 0 }, /limit must be an integer from 1 to 50/],
      [{ query: "ok", scope: "world" }, /scope must be one of session, project/],
      [{ query: "ok", type: "text|images" }, /type must be/],
      [{ query: "ok", role: "system" }, /role must be one of user, assistant/],
      [{ query: "ok", after: "yesterday" }, /after must be an ISO 8601 date/],
      [{ query: "ok", literal: "maybe" }, /literal must be true or false/],
      [{ query: "ok", literal: true, regex: true }, /cannot both be true/],
      [{ query: "ok", session_id: "ses_own", scope: "project" }, /cannot be combined/],
      [{ query: "ok", session_id: "ses_missing" }, /ses_missing.*history_sessions/],
      [{ query: "(a*)*", regex: true }, /nested repetition/],
      [{ query: "ok", alternatives: ["a1", "b2", "c3", "d4"] }, /^alternatives must be a list of at most 3 strings \(got \["a1"/],
      [{ query: "ok", alternatives: { a: 1 } }, /^alternatives must be a list of at most 3 strings/],
      [{ query: "ok", alternatives: ["retry", "  "] }, /^alternatives\[1\] must not be empty$/],
      [{ query: "ok", alternatives: ["x".repeat(501)] }, /^alternatives\[0\] is too long: at most 500 characters \(got 501\)/],
      [{ query: "ok", alternatives: [7] }, /^alternatives\[0\] must be a string of 1 to 500 characters \(got 7\)/],
      [{ query: "ok", regex: true, alternatives: ["(b+)+"] }, /^alternatives\[0\]: regex has a repeated group/],
    ];
    for (const [args, message] of bad) await expect(search.execute(args as never, ctx)).rejects.toThrow(message);
  });

  it("takes alternatives, as a list or its JSON text, and says which phrasings found each message", async () => {
    const { own, search, ctx } = setup();
    for (const alternatives of [["retryPolicy.ts", "zebracorn"], '["retryPolicy.ts", "zebracorn"]']) {
      const out = JSON.parse((await search.execute({ query: "where is the retry policy", session_id: "ses_own", alternatives } as never, ctx)) as string);
      const tool = out.messages.find((m: { message_id: string }) => m.message_id === own[1]!.id);
      expect(tool.by).toEqual([0, 1]);
      expect(out.unmatched).toEqual([2]);
    }
    // A lone string is one alternative.
    const one = JSON.parse((await search.execute({ query: "zebracorn", session_id: "ses_own", alternatives: "retryPolicy" } as never, ctx)) as string);
    expect(one.messages[0].by).toEqual([1]);
    expect(one.unmatched).toEqual([0]);
  });
});

describe("history_sessions", () => {
  it("lists top-level sessions newest first with turns and preview", async () => {
    const { sessions, ctx } = setup();
    const out = JSON.parse((await sessions.execute({} as never, ctx)) as string);
    expect(out.sessions.map((s: { session_id: string }) => s.session_id)).toEqual(["ses_own", "ses_old"]);
    expect(out.sessions[0]).toMatchObject({ title: "retries", turns: 1, preview: "where is the retry policy defined?" });
    const withChildren = JSON.parse((await sessions.execute({ include_children: true } as never, ctx)) as string);
    expect(withChildren.sessions.find((s: { session_id: string }) => s.session_id === "ses_child").parent_id).toBe("ses_old");
  });

  it("ranks by content with a snippet, and validates arguments", async () => {
    const { sessions, ctx } = setup();
    const out = JSON.parse((await sessions.execute({ query: "pelican", include_children: true } as never, ctx)) as string);
    expect(out.sessions.map((s: { session_id: string }) => s.session_id).sort()).toEqual(["ses_child", "ses_old"]);
    expect(out.sessions[0].snippet).toMatch(/pelican/);
    await expect(sessions.execute({ limit: 101 } as never, ctx)).rejects.toThrow(/limit must be an integer from 1 to 100/);
    await expect(sessions.execute({ query: "" } as never, ctx)).rejects.toThrow(/query must not be empty/);
    await expect(sessions.execute({ alternatives: ["pelican"] } as never, ctx)).rejects.toThrow(/alternatives need a query/);
    await expect(sessions.execute({ query: "x1", alternatives: ["a", ""] } as never, ctx)).rejects.toThrow(/alternatives\[1\] must not be empty/);
    const fused = JSON.parse((await sessions.execute({ query: "pelican", alternatives: ["retryPolicy"] } as never, ctx)) as string);
    expect(fused.sessions.map((s: { session_id: string; by: number[] }) => [s.session_id, s.by])).toEqual([
      ["ses_old", [0]],
      ["ses_own", [1]],
    ]);
  });

  it("does not rank the calling session by its live turn, and still lists it without a query", async () => {
    const { sessions, ctx } = setup();
    const ids = async (args: Record<string, unknown>, sessionID: string) =>
      (JSON.parse((await sessions.execute(args as never, { sessionID } as never)) as string).sessions ?? []).map((s: { session_id: string }) => s.session_id);
    // ses_own's only turn (the one asking, for its own caller) is all that says "policy".
    expect(await ids({ query: "policy" }, "ses_own")).toEqual([]);
    expect(await ids({ query: "policy" }, (ctx as { sessionID: string }).sessionID)).toEqual(["ses_own"]);
    expect(await ids({}, "ses_own")).toEqual(["ses_own", "ses_old"]);
  });
});
