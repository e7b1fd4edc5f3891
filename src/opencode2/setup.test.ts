// The package's default export on OpenCode 2, on a stand-in context over a store holding OpenCode
// 2's tables: what the real 2.1.2 of the e2e suite cannot show. A registration-only context; a host
// without `permission.assert` (2.0.x), where reads beyond the project are refused unless the rules
// or our config allow them; that a declined prompt is not bypassed through the host's own session
// reads; that `setup`'s returned function removes what it registered. The tools, compaction,
// guidance and the real prompt are checked on the real host (e2e/). Runs in the host's Bun (the
// store is read with bun:sqlite). Contracts in anomalyco/opencode:
// - packages/plugin/src/promise/adapter.ts@07bc181c: the context's domains; tools through
//   tool.transform(editor => editor.add(info)); hooks through session.hook(name, callback).
// - @opencode-ai/plugin 1.18.33 dist/v2/promise/context.d.ts: the registration-only context.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runInBun } from "../store/testing/run-in-bun.ts";

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

  it("a declined prompt ends the read, and the host's own session reads (2.1.2: no permission) are never asked", () => {
    for (const name of ["otherDeclined", "globalDeclined"]) expect(run[name]).toEqual({ thrown: "The user declined this tool call" });
    expect(run.sessionReads).toEqual([]);
  });

  it("the function setup returns removes what it registered", () => {
    expect(run.afterCleanup).toEqual([]);
  });
});
