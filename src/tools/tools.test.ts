// The tools as the host sees them: the JSON Schema the model gets (ranges and enums included, no
// dialect line), and the browse default.

import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { FakeClient } from "../store/testing/fake-client.ts";
import { RECENT_TURNS } from "./view-tools.ts";
import { callTool, startPlugin, toolContext, type PluginUnderTest } from "../opencode1/testing/plugin-under-test.ts";
import { RawSessionBuilder } from "./testing/raw-session.ts";

type Json = Record<string, any>;
const OWN = "ses_browseown";
const OTHER = "ses_browseother";
const TURNS = 15;

let plugin: PluginUnderTest;
beforeAll(async () => {
  const fake = new FakeClient();
  for (const id of [OWN, OTHER]) {
    const session = new RawSessionBuilder(id);
    for (let turn = 1; turn <= TURNS; turn++) {
      session.user(`Request ${turn}.`);
      session.assistant(`Answer ${turn}.`);
    }
    fake.addSession(id, session.messages);
  }
  plugin = await startPlugin({ fake });
});

async function turnNumbers(args: Json, caller = OWN): Promise<number[]> {
  const outcome = await callTool(plugin, "history_browse_turns", args, toolContext(caller, plugin.directory));
  if (!outcome.ok) throw new Error(outcome.message);
  return (outcome.json as Json).turns.map((turn: Json) => turn.turn_number);
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("history_browse_turns without turn_number", () => {
  it("shows the latest turns before the one making the call", async () => {
    expect(RECENT_TURNS).toBe(10);
    expect(await turnNumbers({})).toEqual(range(TURNS - RECENT_TURNS, TURNS - 1));
    expect(await turnNumbers({ num_before: 2 })).toEqual([12, 13, 14]);
  });

  it("shows another session's latest turns, its last one included", async () => {
    expect(await turnNumbers({ session_id: OTHER })).toEqual(range(TURNS - RECENT_TURNS + 1, TURNS));
  });

  it("still centres on a turn_number (or turn_index) it is given, the calling turn included", async () => {
    expect(await turnNumbers({ turn_number: TURNS })).toEqual([TURNS]);
    expect(await turnNumbers({ turn_index: "3", num_after: "1" })).toEqual([3, 4]);
  });
});

describe("the tools as the model sees them", () => {
  function jsonSchema(tool: string): Json {
    const output = { description: "", parameters: {}, jsonSchema: z.toJSONSchema(z.object(plugin.tools[tool]!.args), { io: "input" }) as unknown };
    return output as Json;
  }

  it("carry ranges and enums in their JSON Schema", () => {
    const turns = jsonSchema("history_browse_turns").jsonSchema.properties;
    expect(turns.num_before).toEqual({ type: "integer", minimum: 0, maximum: 100 });
    expect(turns.turn_number).toMatchObject({ type: "integer", minimum: 1 });
    const search = jsonSchema("history_search").jsonSchema;
    expect(search.required).toEqual(["query"]);
    expect(search.properties.query).toEqual({ type: "string", minLength: 1, maxLength: 500 });
    expect(search.properties.scope).toMatchObject({ enum: ["session", "project", "global"] });
    expect(search.properties.limit).toMatchObject({ type: "integer", minimum: 1, maximum: 50 });
    expect(search.properties.literal).toMatchObject({ type: "boolean" });
    expect(jsonSchema("history_pull_part").jsonSchema.properties.limit).toMatchObject({ minimum: 1000, maximum: 40000 });
    expect(jsonSchema("history_sessions").jsonSchema.properties.limit).toMatchObject({ minimum: 1, maximum: 100 });
  });

  it("leave out the guard ceilings of turn numbers and offsets, and still reject past them", async () => {
    expect(jsonSchema("history_browse_turns").jsonSchema.properties.turn_number).toEqual({
      description: `Default: the ${RECENT_TURNS} turns before this one`,
      type: "integer",
      minimum: 1,
    });
    for (const tool of ["history_search", "history_sessions", "history_pull_part"]) {
      expect(jsonSchema(tool).jsonSchema.properties.offset, tool).toMatchObject({ type: "integer", minimum: 0 });
      expect(jsonSchema(tool).jsonSchema.properties.offset, tool).not.toHaveProperty("maximum");
    }
    const context = toolContext(OWN, plugin.directory);
    const turn = await callTool(plugin, "history_browse_turns", { turn_number: 1_000_001 }, context);
    expect(turn).toMatchObject({ ok: false, message: "turn_number must be an integer from 1 to 1000000 (got 1000001)" });
    const fraction = await callTool(plugin, "history_browse_turns", { turn_number: 2.5 }, context);
    expect(fraction).toMatchObject({ ok: false, message: "turn_number must be an integer from 1 to 1000000 (got 2.5)" });
    const offset = await callTool(plugin, "history_search", { query: "Request", offset: "1001" }, context);
    expect(offset).toMatchObject({ ok: false, message: 'offset must be an integer from 0 to 1000 (got "1001")' });
    const page = await callTool(plugin, "history_search", { query: "Request", offset: 1000 }, context);
    expect(page.ok).toBe(true);
  });

  it("are sent without the schema dialect line; other tools are left alone", async () => {
    const definition = plugin.hooks["tool.definition"]!;
    const ours = jsonSchema("history_search");
    expect(ours.jsonSchema.$schema).toMatch(/json-schema.org/);
    await definition({ toolID: "history_search" }, ours as never);
    expect(ours.jsonSchema.$schema).toBeUndefined();
    expect(ours.jsonSchema.properties.query).toBeDefined();
    const theirs = { description: "", parameters: {}, jsonSchema: { $schema: "x", type: "object" } };
    await definition({ toolID: "bash" }, theirs as never);
    expect(theirs.jsonSchema.$schema).toBe("x");
  });
});
