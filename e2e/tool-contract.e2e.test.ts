// The argument contract and the lifecycle on the real host: what OpenCode 1.18.33 does with the
// arguments the model sends a plugin tool, the browse default, and the dispose hook.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { schemaError } from "./harness/tool-call.ts";
import { startHost, type Host } from "./harness/host.ts";

type Json = Record<string, any>;

let host: Host;
let sessionId: string;
beforeAll(async () => {
  host = await startHost();
  sessionId = (await host.createSession()).id;
  for (const text of ["One.", "Two.", "Three."]) await host.prompt(sessionId, text);
});
afterAll(async () => {
  await host?.stop();
});

const turnNumbers = (output: unknown) => ((output as Json).turns as Json[]).map((turn) => turn.turn_number);

describe("arguments as the model sends them", () => {
  test("without turn_number, history_browse_turns shows the turns before the one making the call", async () => {
    const result = await host.callTool(sessionId, "history_browse_turns", {});
    expect(result.status).toBe("completed");
    expect(turnNumbers(result.output)).toEqual([1, 2, 3]);
  });

  test("the host hands over strings as sent, and the schema coerces them; turn_index still works", async () => {
    const strings = await host.callTool(sessionId, "history_browse_turns", { turn_number: "2", num_after: "1" });
    expect(strings.error).toBeUndefined();
    expect(turnNumbers(strings.output)).toEqual([2, 3]);
    const alias = await host.callTool(sessionId, "history_browse_turns", { turn_index: 1 });
    expect(turnNumbers(alias.output)).toEqual([1]);
    const flag = await host.callTool(sessionId, "history_search", { query: "Two", literal: "true" });
    expect(flag.status).toBe("completed");
  });

  test("a value past the schema's range: 1.x leaves it to the plugin's own message, OpenCode 2 refuses it first", async () => {
    const offered = host.mock
      .chatRequests()
      .at(-1)!
      .body.tools!.find((t) => t.function.name === "history_browse_turns")!;
    expect((offered.function.parameters as Json).properties.num_before).toEqual({ type: "integer", minimum: 0, maximum: 100 });
    const result = await host.callTool(sessionId, "history_browse_turns", { num_before: 101 });
    expect(result.status).toBe("error");
    if (host.generation === 1) expect(result.error).toBe("num_before must be an integer from 0 to 100 (got 101)");
    else expect(result.error).toMatch(schemaError(2, "history_browse_turns", "num_before", /./));
  });
});

describe("dispose", () => {
  test("disposing the instance runs the plugin's dispose; the next request loads the plugin afresh", async () => {
    const loads = () =>
      host
        .logs()
        .split("\n")
        .filter((line) => /loading plugin/.test(line)).length;
    const loadedBefore = loads();
    await host.disposeInstance();
    // 1.x logs the plugin's dispose; on OpenCode 2 the plugin's dispose logs nothing, and the
    // host loads the plugin again for the next request (its "loading plugin" line).
    if (host.generation === 1) await waitFor(() => /disposed: regex worker ended/.test(host.logs()));
    expect(host.logs()).not.toMatch(/plugin dispose hook failed/);
    const again = await host.callTool(sessionId, "history_browse_turns", { num_before: 1 });
    expect(again.status).toBe("completed");
    if (host.generation === 2) expect(loads()).toBeGreaterThan(loadedBefore);
    expect(host.pluginLoadErrors()).toEqual([]);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(condition()).toBe(true);
}
