// The package's default export on OpenCode 2, end to end short of a real host (none can be
// installed here): `setup` on a stand-in context over a store holding OpenCode 2's tables, driven
// as the host drives it. Runs in the host's Bun (the store is read with bun:sqlite). The contract
// each assertion holds to, in anomalyco/opencode:
// - packages/plugin/src/promise/adapter.ts@07bc181c: the context's domains; tools through
//   tool.transform(editor => editor.add(info)); hooks through session.hook(name, callback).
// - packages/schema/src/tool.ts@0f131b3e, packages/core/src/tool/AGENTS.md@195db60f: Info with
//   `options.codemode: false` to be callable by name; results are objects ({content}).
// - packages/plugin/src/promise/session.ts@03545fd3, packages/core/src/session/compaction.ts (copy
//   id 70855262731): a compaction hook's `result.summary` is stored and no model call runs; the
//   `context` hook's `system` parts reach the model.
// - @opencode-ai/plugin 1.18.33 dist/v2/promise/context.d.ts: the registration-only context.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { GUIDANCE, NAVIGATOR_TITLE } from "../hooks/guidance.ts";
import { runInBun } from "../store/testing/run-in-bun.ts";
import { HISTORY_TOOL_NAMES } from "../tools/history-tools.ts";

const scenario = fileURLToPath(new URL("../testing/opencode2-scenario.bun.ts", import.meta.url));

interface Call {
  content?: string;
  json?: any;
  keys: string[];
}

const run = runInBun<Record<string, any>>(scenario, {});
const call = (name: string): Call => run[name] as Call;

describe("the default export on OpenCode 2 (stand-in context, OpenCode 2 store)", () => {
  it("registers nothing for a registration-only context", () => {
    expect(run.registrationOnly).toEqual({ returned: null, transforms: 0 });
  });

  it("adds the six tools once each, callable by name, with plain JSON Schema input", () => {
    expect(run.tools.map((tool: { name: string }) => tool.name).sort()).toEqual(HISTORY_TOOL_NAMES);
    for (const tool of run.tools) expect(tool).toMatchObject({ codemode: false, inputType: "object", hasSchemaLine: false });
  });

  it("browses, searches and pulls the session from session_message, answering objects with content", () => {
    for (const name of ["turns", "search", "pulled", "toolHit", "sessions"]) expect(call(name).keys).toEqual(["content"]);
    expect(call("turns").json.turns[0].user).toEqual({
      message_id: "msg_0001",
      preview: "Our public API needs per-key rate limiting; Northwind complains about bursts.",
    });
    expect(call("turns").json.turns[1].assistant.tool).toEqual({ calls: ["1× shell"], outcome: "completed" });
    expect(call("search").json.messages[0]).toMatchObject({ message_id: "msg_0002", turn_number: 1 });
    expect(call("pulled").json.sections[0].content).toContain("sliding-window limiter");
  });

  it("searches the project and lists its sessions from session_v2, and no other project's", () => {
    const hit = call("toolHit").json.messages[0];
    expect(hit).toMatchObject({ session_id: "ses_main", message_id: "msg_0004" });
    expect(hit.hits[0]).toMatchObject({ type: "tool", tool_name: "shell" });
    expect(call("toolHit").json.messages.every((m: { session_id: string }) => m.session_id !== "ses_other")).toBe(true);
    const sessions = call("sessions").json.sessions.map((s: { session_id: string; parent_id?: string }) => [s.session_id, s.parent_id ?? null]);
    expect(sessions).toEqual([
      ["ses_child", "ses_main"],
      ["ses_main", null],
    ]);
  });

  it("returns argument and lookup errors as content the model reads", () => {
    expect(call("badArgument")).toEqual({ content: 'turn_number must be an integer from 1 to 1000000 (got "first")', keys: ["content"] });
    expect(call("unknownSession").content).toBe("Session ses_nowhere not found. Use history_sessions to list this project's sessions.");
  });

  it("refuses another project without a way to ask, naming the settings that allow it", () => {
    for (const name of ["otherRefused", "globalRefused"]) {
      expect(call(name).json).toBeUndefined();
      expect(call(name).content).toContain('"action":"engram_other_projects"');
      expect(call(name).content).toContain('"other_projects_without_prompt": true');
    }
    expect(call("otherRefused").content).toContain("/work/billing");
  });

  it("asks through permission.assert where the host offers it, then reads", () => {
    expect(run.asked).toEqual([
      expect.objectContaining({ sessionID: "ses_main", action: "engram_other_projects", resources: ["/work/billing"], agent: "build" }),
    ]);
    expect(call("otherAsked").json.turns[0].user.preview).toBe("How are invoices rounded?");
  });

  it("a declined prompt ends the read, and the host's own session reads (2.1.2: no permission) are never asked", () => {
    for (const name of ["otherDeclined", "globalDeclined"]) expect(run[name]).toEqual({ thrown: "The user declined this tool call" });
    expect(run.sessionReads).toEqual([]);
  });

  it("compaction: the chart is the result, its ids end at the last message summarized and each one pulls", () => {
    expect(run.summary).toContain("# History chart (session ses_main)");
    expect(run.cited.sort()).toEqual(["msg_0001", "msg_0002", "msg_0003", "msg_0004"]);
    expect(run.citedPulls.sort()).toEqual(["msg_0001", "msg_0002", "msg_0003", "msg_0004"]);
  });

  it("context: the guidance on every agent request, and a subagent's parent from the stored parent id", () => {
    expect(run.guidance).toEqual(["You are opencode.", GUIDANCE]);
    expect(run.navigator[1]).toBe(GUIDANCE);
    expect(run.navigator[2]).toContain(NAVIGATOR_TITLE);
    expect(run.navigator[2]).toContain("started by session ses_main");
  });

  it("the function setup returns removes what it registered", () => {
    expect(run.afterCleanup).toEqual([]);
  });
});
