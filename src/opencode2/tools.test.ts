// The history tools as OpenCode 2 gets them, against the stand-in context. Contract sources
// (anomalyco/opencode): packages/plugin/src/promise/tool.ts@ab8f417a/@196e4612 (editor.add takes one
// object with `name`; transform resolves to a Registration); packages/schema/src/tool.ts@0f131b3e
// (Info, Options.codemode, Result {output?, content?, metadata?}); packages/core/src/tool/runtime.ts
// @0ad62326 (raw JSON Schema input passed as is; `output` without an output schema is a defect);
// packages/plugin/src/promise/adapter.ts@07bc181c (a rejected Promise tool is a defect, so errors
// come back as content). The 1.x side: what OpenCode 1.18.33 sends (e2e/tool-contract.e2e.test.ts).

import type { ToolContext } from "@opencode-ai/plugin";
import { beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { textMessage } from "../history/testing/messages.ts";
import { dropSchemaDialect, type ToolDefinitionOutput } from "../tools/definition.ts";
import { callContextFor, type V2ToolContext } from "./tool-context.ts";
import { registerHistoryTools, type V2ToolInfo } from "./tools.ts";
import { CALLER, ELSEWHERE, historyUnderTest, PROJECT, SIBLING, type HistoryUnderTest } from "./testing/history-under-test.ts";
import { standInHost, type PermissionVariant } from "./testing/stand-in-host.ts";

type Json = Record<string, any>;

const SIX = ["history_browse_messages", "history_browse_turns", "history_pull_message", "history_pull_part", "history_search", "history_sessions"];

let history: HistoryUnderTest;
beforeEach(() => {
  history = historyUnderTest();
});

async function registered(permission: PermissionVariant = { kind: "neither" }) {
  const host = standInHost({ location: { directory: PROJECT, project: { id: "prj_p", directory: PROJECT } }, permission });
  const registration = await registerHistoryTools(
    host.tool,
    history.definitions,
    callContextFor(host.context, () => false),
  );
  const tool = (name: string) => host.tool.effective().get(name) as unknown as V2ToolInfo;
  return { host, registration, tool };
}

const call = (sessionID = CALLER, signal?: AbortSignal): V2ToolContext => ({
  sessionID,
  agent: "build",
  messageID: "msg_caller",
  id: "call_1",
  ...(signal ? { signal } : {}),
});

/** The same call on 1.x: the definition's own execute with the context 1.18.33 passes. */
function v1Context(): ToolContext {
  return {
    sessionID: CALLER,
    messageID: "msg_caller",
    agent: "build",
    directory: PROJECT,
    worktree: PROJECT,
    abort: new AbortController().signal,
    metadata: () => {},
    ask: async () => {},
  };
}

describe("registration", () => {
  it("adds the six tools once each, by name in one object, each native (codemode false)", async () => {
    const { host } = await registered();
    expect(host.tool.transforms.made).toHaveLength(1);
    expect(host.tool.added.map((tool) => tool.name).sort()).toEqual(SIX);
    expect([...host.tool.effective().keys()].sort()).toEqual(SIX);
    for (const tool of host.tool.added) {
      expect(tool.options, tool.name).toEqual({ codemode: false });
      expect(typeof tool.description, tool.name).toBe("string");
      expect(typeof tool.execute, tool.name).toBe("function");
    }
  });

  it("resolves to the host's Registration: disposing it removes the tools", async () => {
    const { host, registration } = await registered();
    await registration.dispose();
    expect(host.tool.effective().size).toBe(0);
  });
});

describe("input schema", () => {
  it("is plain JSON Schema equal to what 1.x sends the model for the same zod shape, without $schema", async () => {
    const { tool } = await registered();
    for (const name of SIX) {
      const input = tool(name).input;
      // What 1.18.33 builds from the plugin's args, then our tool.definition hook trims.
      const v1: ToolDefinitionOutput = {
        description: "",
        parameters: {},
        jsonSchema: z.toJSONSchema(z.object(history.definitions[name]!.args), { io: "input" }),
      };
      dropSchemaDialect(v1);
      expect(input, name).toEqual(v1.jsonSchema);
      expect(input.type, name).toBe("object");
      expect(input, name).not.toHaveProperty("$schema");
      expect(JSON.parse(JSON.stringify(input)), name).toEqual(input); // plain data: no zod objects, no functions
    }
  });

  it("keeps ranges, enums and required as zod says; preprocess, refine and transform leave no trace", async () => {
    const { tool } = await registered();
    const turns = tool("history_browse_turns").input as Json;
    expect(turns.properties.num_before).toEqual({ type: "integer", minimum: 0, maximum: 100 }); // as 1.18.33 offers it
    expect(turns.required).toBeUndefined();
    expect(turns.properties.session_id).toEqual({ type: "string" });
    const search = tool("history_search").input as Json;
    expect(search.required).toEqual(["query"]);
    expect(search.properties.type).toMatchObject({ type: "string" });
    expect(search.properties.after).toMatchObject({ type: "string" });
    expect(search.properties.scope).toMatchObject({ enum: ["session", "project", "global"] });
    expect((tool("history_pull_part").input as Json).required).toEqual(["message_id", "part_id"]);
    expect((tool("history_pull_message").input as Json).required).toEqual(["message_id"]);
  });
});

describe("execute", () => {
  it("answers an object whose content is the JSON 1.x answers for the same call", async () => {
    const { tool } = await registered();
    const calls: Array<[string, Json]> = [
      ["history_browse_turns", { session_id: SIBLING }],
      ["history_browse_messages", { session_id: SIBLING, num_before: 1 }],
      ["history_pull_message", { session_id: SIBLING, message_id: history.siblingMessageId }],
      ["history_pull_part", { session_id: SIBLING, message_id: history.siblingMessageId, part_id: history.siblingPartId }],
      ["history_search", { query: "pelican", scope: "project", literal: "true" }],
      ["history_sessions", { include_children: true }],
    ];
    for (const [name, args] of calls) {
      const v1 = await history.definitions[name]!.execute(args as never, v1Context());
      const result = await tool(name).execute(args, call());
      expect(result, name).toEqual({ content: v1 });
      expect(result, name).not.toHaveProperty("output");
      expect(JSON.parse(result.content), name).toBeTypeOf("object");
    }
  });

  it("pages history_search and history_sessions through next_offset, as on 1.x", async () => {
    const { tool } = await registered();
    const more = Array.from({ length: 14 }, (_, i) =>
      textMessage("ses_more", i % 2 ? "assistant" : "user", `pelican page note ${i}`, Date.UTC(2026, 0, 2) + i),
    );
    history.source.add({ id: "ses_more", title: "more", directory: PROJECT, created: Date.UTC(2026, 0, 2), updated: Date.UTC(2026, 0, 2) + 14 }, more);
    for (const [name, args, key] of [
      ["history_search", { query: "pelican", scope: "project", limit: 5 }, "messages"],
      ["history_sessions", { limit: 1 }, "sessions"],
    ] as const) {
      const seen: string[] = [];
      let offset: number | undefined = 0;
      while (offset !== undefined) {
        const page = JSON.parse((await tool(name).execute({ ...args, offset }, call())).content) as Json;
        const v1 = JSON.parse((await history.definitions[name]!.execute({ ...args, offset } as never, v1Context())) as string) as Json;
        expect(page, name).toEqual(v1);
        for (const item of page[key] ?? []) seen.push(item.message_id ?? item.session_id);
        offset = page.next_offset;
      }
      expect(new Set(seen).size, name).toBe(seen.length);
      const whole = JSON.parse((await tool(name).execute({ ...args, limit: 50 }, call())).content) as Json;
      expect(seen, name).toEqual(whole[key].map((item: Json) => item.message_id ?? item.session_id));
    }
    const past = JSON.parse((await tool("history_search").execute({ query: "pelican", scope: "project", offset: 900 }, call())).content) as Json;
    expect(past).toEqual({ hint: "No more results: offset 900 is past the last one." });
    const bad = (await tool("history_search").execute({ query: "pelican", offset: -1 }, call())).content as string;
    expect(bad).toMatch(/offset.*an integer from 0 to 1000/);
  });

  it("turns a bad argument into content worded as on 1.x", async () => {
    const { tool } = await registered();
    const result = await tool("history_browse_turns").execute({ num_before: 101 }, call());
    expect(result).toEqual({ content: "num_before must be an integer from 0 to 100 (got 101)" });
    expect((await tool("history_pull_message").execute({}, call())).content).toMatch(/^message_id is required/);
  });

  it("turns an unknown session into content naming it", async () => {
    const { tool } = await registered();
    const result = await tool("history_browse_turns").execute({ session_id: "ses_nosuch" }, call());
    expect(result.content).toMatch(/session ses_nosuch not found/);
  });

  it("turns an unexpected failure into content, never a throw or a stack", async () => {
    const { tool } = await registered();
    history.source.failLoads = true;
    const result = await tool("history_browse_turns").execute({ session_id: SIBLING }, call());
    expect(result.content).toMatch(/^history_browse_turns failed unexpectedly \(store unavailable\)/);
    expect(result.content).not.toMatch(/\n\s+at /);
  });

  it("reads inside the location's project without asking anyone", async () => {
    const { host, tool } = await registered({ kind: "assert" });
    expect(JSON.parse((await tool("history_browse_turns").execute({ session_id: SIBLING }, call())).content)).toHaveProperty("turns");
    expect(host.asserted).toEqual([]);
  });

  it("passes the host's own refusal on (rethrown, as 1.x does) and reads nothing of that session", async () => {
    const refusal = new Error("The user rejected permission to use this specific tool call.");
    const { tool } = await registered({ kind: "assert", refusal });
    await expect(tool("history_browse_turns").execute({ session_id: ELSEWHERE }, call())).rejects.toBe(refusal);
    expect(history.source.loads).toBe(0);
  });

  it("hands the call's signal to the tools: an aborted call stops as it does on 1.x", async () => {
    const { tool } = await registered();
    const controller = new AbortController();
    controller.abort();
    const args = { query: "pelican", scope: "project" };
    const result = await tool("history_search").execute(args, call(CALLER, controller.signal));
    expect(result.content).toMatch(/aborted/);
    await expect(history.definitions.history_search!.execute(args as never, { ...v1Context(), abort: controller.signal })).rejects.toThrow(result.content);
    expect(JSON.parse((await tool("history_search").execute(args, call())).content)).toHaveProperty("messages");
  });
});
