// The tools as the host sees them: the JSON Schema the model gets (ranges and enums included, no
// dialect line), and the browse default.

import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { FakeClient } from "../store/testing/fake-client.ts";
import { RECENT_TURNS } from "./browse-turns.ts";
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
