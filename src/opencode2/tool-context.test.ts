// OpenCode 2's call context as the history tools get it. Sources (anomalyco/opencode):
// packages/plugin/src/promise/tool.ts@196e4612 (sessionID, agent, messageID, id, signal) and
// @ab8f417a (no signal); packages/schema/src/location.ts@0f6c270b (directory, project.directory).

import { describe, expect, it } from "vitest";
import { callContextFor, toolContextOf } from "./tool-context.ts";

const location = { directory: "/repo/packages/app", project: { id: "prj_1", directory: "/repo" } };
const noAsk = async () => {};

describe("toolContextOf", () => {
  it("takes the directory from the location and the project root as the worktree", () => {
    const context = toolContextOf({ sessionID: "ses_a", agent: "build", messageID: "msg_a" }, location, noAsk);
    expect(context).toMatchObject({ sessionID: "ses_a", agent: "build", messageID: "msg_a", directory: "/repo/packages/app", worktree: "/repo" });
    expect(context.ask).toBe(noAsk);
  });

  it("uses the call's signal, and one that never aborts on builds without it", () => {
    const controller = new AbortController();
    expect(toolContextOf({ sessionID: "ses_a", signal: controller.signal }, location, noAsk).abort).toBe(controller.signal);
    const without = toolContextOf({ sessionID: "ses_a" }, { directory: "/solo" }, noAsk);
    expect(without.abort.aborted).toBe(false);
    expect(without.worktree).toBe("/solo");
  });
});

describe("callContextFor", () => {
  it("gives each call the gate for its own session and agent", async () => {
    const asked: unknown[] = [];
    const host = { location, permission: { assert: async (input: unknown) => void asked.push(input) } };
    const contextOf = callContextFor(host, () => false);
    await contextOf({ sessionID: "ses_one", agent: "plan" }).ask({ permission: "engram_other_projects", patterns: ["/x"], always: ["/x"], metadata: {} });
    expect(asked).toMatchObject([{ sessionID: "ses_one", agent: "plan", resources: ["/x"] }]);
  });
});
