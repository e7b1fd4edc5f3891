// Config files in the real host: a project file with comments and trailing commas takes effect,
// and a global file with a syntax error is skipped with a warning naming its line and column.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startHost, type Host } from "./harness/host.ts";

const PROJECT_CONFIG = `{
  // Short previews, to see that this file was read.
  "browse": {
    /* 20 is the smallest allowed */ "preview_chars": 20,
  },
}
`;

// The comma missing after "max_turns": 10 is reported where "max_messages" starts: line 5, column 5.
const BROKEN_GLOBAL_CONFIG = `{
  // a comment that the error position must count
  "browse": {
    "max_turns": 10
    "max_messages": 10
  }
}
`;

describe("config files in the real host", () => {
  let host: Host;
  beforeAll(async () => {
    host = await startHost({ engramConfig: PROJECT_CONFIG, globalEngramConfig: BROKEN_GLOBAL_CONFIG });
  });
  afterAll(async () => {
    await host?.stop();
  });

  test("the project file applies; the broken global file is reported at its line and column", async () => {
    const session = await host.createSession();
    await host.prompt(session.id, "A first question that is much longer than twenty characters.");
    const result = await host.callTool(session.id, "history_browse_turns", { turn_number: 1, num_before: 0, num_after: 0 });
    expect(result.error).toBeUndefined();
    const turns = (result.output as { turns: { turn_number: number; user?: { preview: string } }[] }).turns;
    expect(turns[0]?.turn_number).toBe(1);
    expect(turns[0]?.user?.preview.length).toBeLessThanOrEqual(21);
    expect(turns[0]?.user?.preview).toMatch(/^A first question.*…$/);
    expect(host.pluginLoadErrors()).toEqual([]);
    expect(host.logs()).toContain(`${join("config", "opencode", "opencode-engram.jsonc")}: cannot be read as JSON (comma expected at line 5, column 5)`);
  });
});
