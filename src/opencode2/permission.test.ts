// Reads of other projects on OpenCode 2: each path of the gate, alone and through the tools.
// Contract sources (anomalyco/opencode): the permission domain without assert,
// packages/plugin/src/promise/adapter.ts@07bc181c; assert's input, stored copies of
// packages/plugin/src/effect/permission.ts (PR #46530); rules
// {action, resource, effect}, packages/schema/src/permission.ts@047544f0; last match wins with
// wildcards, evaluate() in packages/core/src/permission.ts; agent rules and their
// `* * allow` default, packages/schema/src/agent.ts@3ece701d; agent.get's {location, data} answer,
// protocol groups/agent.ts.

import { describe, expect, it } from "vitest";
import { HistoryError } from "../history/errors.ts";
import { OTHER_PROJECTS_PERMISSION } from "../tools/reach.ts";
import {
  askOtherProjectsByDefault,
  decideByRules,
  OTHER_PROJECTS_ASK,
  otherProjectsAsk,
  registerOtherProjectsAsk,
  wildcardMatch,
  type PermissionHost,
  type PermissionRule,
} from "./permission.ts";
import { callContextFor } from "./tool-context.ts";
import { registerHistoryTools, type V2ToolInfo } from "./tools.ts";
import { CALLER, ELSEWHERE, historyUnderTest, OTHER_PROJECT, PROJECT } from "./testing/history-under-test.ts";
import { DEFAULT_AGENT_RULES, standInHost, standInRegistrationOnlyContext, type PermissionVariant } from "./testing/stand-in-host.ts";

const ONE_PROJECT = {
  permission: OTHER_PROJECTS_PERMISSION,
  patterns: ["/q"],
  always: ["/q"],
  metadata: { tool: "history_browse_turns", session_id: "ses_x", directory: "/q" },
};
const EVERY_PROJECT = { permission: OTHER_PROJECTS_PERMISSION, patterns: ["*"], always: ["*"], metadata: { tool: "history_search", scope: "global" } };
const rule = (resource: string, effect: PermissionRule["effect"], action = OTHER_PROJECTS_PERMISSION): PermissionRule => ({ action, resource, effect });
const caller = { sessionID: "ses_caller", agent: "build" };

function gate(variant: PermissionVariant, allowWithoutPrompt = false, agentRules?: readonly PermissionRule[]) {
  const host = standInHost({ permission: variant, ...(agentRules ? { agentRules } : {}) });
  return { host, ask: otherProjectsAsk(host.context, caller, () => allowWithoutPrompt) };
}

async function refusalOf(promise: Promise<void>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(HistoryError);
  return (error as HistoryError).message;
}

describe("with ctx.permission.assert", () => {
  it("asks the host with our action, the resources and what an always-reply saves", async () => {
    const { host, ask } = gate({ kind: "assert" });
    await ask(ONE_PROJECT);
    expect(host.asserted).toEqual([
      { sessionID: "ses_caller", agent: "build", action: "engram_other_projects", resources: ["/q"], save: ["/q"], metadata: ONE_PROJECT.metadata },
    ]);
    expect(host.agents.gets).toEqual([]);
  });

  it("passes the host's rejection on unchanged, whatever our config says", async () => {
    const refusal = new Error("denied by the user");
    const { ask } = gate({ kind: "assert", refusal }, true);
    await expect(ask(EVERY_PROJECT)).rejects.toBe(refusal);
  });
});

describe("with readable agent rules", () => {
  it("reads when the last matching rule allows, for one project or every project", async () => {
    await gate({ kind: "rules" }, false, [...DEFAULT_AGENT_RULES, rule("*", "allow")]).ask(EVERY_PROJECT);
    await gate({ kind: "rules" }, false, [...DEFAULT_AGENT_RULES, rule("/q*", "allow")]).ask(ONE_PROJECT);
    const { host, ask } = gate({ kind: "rules" }, false, [rule("/q", "deny"), rule("/q", "allow")]);
    await ask(ONE_PROJECT);
    expect(host.agents.gets).toEqual(["build"]);
  });

  it("refuses when the last matching rule denies, even with our config on", async () => {
    const message = await refusalOf(gate({ kind: "rules" }, true, [rule("*", "allow"), rule("/q", "deny")]).ask(ONE_PROJECT));
    expect(message).toMatch(/permission rules deny engram_other_projects for the history of another project \(\/q\)/);
    await refusalOf(gate({ kind: "rules" }, true, [rule("*", "allow"), rule("*", "deny", "*")]).ask(EVERY_PROJECT));
  });

  it("does not count the agents' blanket `* * allow` as consent", async () => {
    const message = await refusalOf(gate({ kind: "rules" }, false, DEFAULT_AGENT_RULES).ask(ONE_PROJECT));
    expect(message).toMatch(/cannot ask/);
  });

  it("leaves an ask rule, or a rule for another directory, to our config", async () => {
    await gate({ kind: "rules" }, true, [rule("*", "ask")]).ask(ONE_PROJECT);
    await refusalOf(gate({ kind: "rules" }, false, [rule("*", "ask")]).ask(ONE_PROJECT));
    await refusalOf(gate({ kind: "rules" }, false, [rule("/other", "allow")]).ask(ONE_PROJECT));
    await refusalOf(gate({ kind: "rules" }, false, [rule("/q", "allow")]).ask(EVERY_PROJECT)); // one project's rule is not every project's
  });

  it("falls back to the config when the agent cannot be read", async () => {
    const failing: PermissionHost = { agent: { get: async () => Promise.reject(new Error("Agent not found")) } };
    await otherProjectsAsk(failing, caller, () => true)(ONE_PROJECT);
    await refusalOf(otherProjectsAsk(failing, caller, () => false)(ONE_PROJECT));
    const bare: PermissionHost = { agent: { get: async () => ({ id: "build", permissions: [rule("*", "allow")] }) } };
    await otherProjectsAsk(bare, caller, () => false)(ONE_PROJECT); // a bare Agent.Info is read too
  });
});

describe("with neither", () => {
  it("reads only when our config allows it", async () => {
    await gate({ kind: "neither" }, true).ask(ONE_PROJECT);
    await refusalOf(gate({ kind: "neither" }).ask(EVERY_PROJECT));
  });

  it("refuses with the exact rule and config key that allow it", async () => {
    const one = await refusalOf(gate({ kind: "neither" }).ask(ONE_PROJECT));
    expect(one).toContain('{"action":"engram_other_projects","resource":"/q","effect":"allow"} in "permissions" of opencode.json');
    expect(one).toContain('"permission": {"other_projects_without_prompt": true} in opencode-engram.jsonc');
    const every = await refusalOf(gate({ kind: "neither" }).ask(EVERY_PROJECT));
    expect(every).toMatch(/^Not read: every project's history needs the user's permission/);
    expect(every).toContain('"resource":"*"');
  });
});

describe("rule matching", () => {
  it("matches as OpenCode's wildcard does: * any run, ? one character, backslashes as slashes", () => {
    expect(wildcardMatch("/q/app", "/q/*")).toBe(true);
    expect(wildcardMatch("/q", "/q/*")).toBe(false);
    expect(wildcardMatch("/q1", "/q?")).toBe(true);
    expect(wildcardMatch("/a.b", "/a?b")).toBe(true);
    expect(wildcardMatch("/axb", "/a.b")).toBe(false);
    expect(wildcardMatch("C:/work/q", "C:\\work\\*")).toBe(true);
    expect(wildcardMatch("engram_other_projects", "engram_*")).toBe(true);
  });

  it("decides by the last match; a denied resource denies the request", () => {
    expect(decideByRules([rule("*", "allow"), rule("/q", "deny")], OTHER_PROJECTS_PERMISSION, ["/q"])).toBe("deny");
    expect(decideByRules([rule("/q", "deny"), rule("*", "allow")], OTHER_PROJECTS_PERMISSION, ["/q"])).toBe("allow");
    expect(decideByRules([rule("/q", "allow")], OTHER_PROJECTS_PERMISSION, ["/q", "/r"])).toBeUndefined();
    expect(decideByRules([rule("*", "allow"), rule("/r", "deny")], OTHER_PROJECTS_PERMISSION, ["/q", "/r"])).toBe("deny");
    expect(decideByRules([rule("*", "allow", "bash")], OTHER_PROJECTS_PERMISSION, ["/q"])).toBeUndefined();
  });
});

describe("ask by default (the agent transform)", () => {
  it("puts our ask right after the blanket allow, so the host's own evaluation asks and later rules still win", () => {
    const rules = [...DEFAULT_AGENT_RULES, rule("/q", "allow")];
    askOtherProjectsByDefault(rules);
    expect(rules).toEqual([DEFAULT_AGENT_RULES[0], OTHER_PROJECTS_ASK, DEFAULT_AGENT_RULES[1], rule("/q", "allow")]);
    // The host's evaluate(): last match, blanket rules included.
    const last = (resource: string) => rules.findLast((r) => wildcardMatch(OTHER_PROJECTS_PERMISSION, r.action) && wildcardMatch(resource, r.resource))!.effect;
    expect(last("/r")).toBe("ask");
    expect(last("/q")).toBe("allow");
    askOtherProjectsByDefault(rules); // a replay adds nothing
    expect(rules.filter((r) => r === OTHER_PROJECTS_ASK || r.effect === "ask")).toHaveLength(2);
  });

  it("leaves rules without a blanket allow alone, and never weakens a later deny", () => {
    const strict = [rule("*", "deny", "*")];
    askOtherProjectsByDefault(strict);
    expect(strict).toEqual([rule("*", "deny", "*")]);
    const denied = [...DEFAULT_AGENT_RULES, rule("*", "deny")];
    askOtherProjectsByDefault(denied);
    expect(denied.at(-1)).toEqual(rule("*", "deny"));
  });

  it("registers on every agent through agent.transform; dispose takes it back", async () => {
    const host = standInHost({ permission: { kind: "rules" } });
    const registration = await registerOtherProjectsAsk(host.context.agent);
    expect(host.agents.effective().get("build")!.permissions).toContainEqual(OTHER_PROJECTS_ASK);
    await registration!.dispose();
    expect(host.agents.effective().get("build")!.permissions).not.toContainEqual(OTHER_PROJECTS_ASK);
    expect(await registerOtherProjectsAsk(undefined)).toBeUndefined();
    expect(await registerOtherProjectsAsk(standInRegistrationOnlyContext().context.agent)).toHaveProperty("dispose");
  });

  it("with it in place the rules path still refuses unasked reads and honours the user's allow", async () => {
    const blanket = standInHost({ permission: { kind: "rules" } });
    await registerOtherProjectsAsk(blanket.context.agent);
    await refusalOf(otherProjectsAsk(blanket.context, caller, () => false)(ONE_PROJECT));
    const allowed = standInHost({ permission: { kind: "rules" }, agentRules: [...DEFAULT_AGENT_RULES, rule("*", "allow")] });
    await registerOtherProjectsAsk(allowed.context.agent);
    await otherProjectsAsk(allowed.context, caller, () => false)(EVERY_PROJECT);
  });
});

describe("through the tools", () => {
  async function browseElsewhere(variant: PermissionVariant, allowWithoutPrompt: boolean, agentRules?: readonly PermissionRule[]) {
    const history = historyUnderTest();
    const host = standInHost({ location: { directory: PROJECT, project: { directory: PROJECT } }, permission: variant, ...(agentRules ? { agentRules } : {}) });
    await registerHistoryTools(
      host.tool,
      history.definitions,
      callContextFor(host.context, () => allowWithoutPrompt),
    );
    const tool = host.tool.effective().get("history_browse_turns") as unknown as V2ToolInfo;
    const result = await tool.execute({ session_id: ELSEWHERE }, { sessionID: CALLER, agent: "build" });
    return { result, loads: history.source.loads };
  }

  it("a refusal comes back as content and nothing of the other project is read", async () => {
    const { result, loads } = await browseElsewhere({ kind: "neither" }, false);
    expect(result.content).toMatch(new RegExp(`^Not read: the history of another project \\(${OTHER_PROJECT}\\)`));
    expect(loads).toBe(0);
  });

  it("an allowing rule or our config lets the read through", async () => {
    const byRule = await browseElsewhere({ kind: "rules" }, false, [...DEFAULT_AGENT_RULES, rule(OTHER_PROJECT, "allow")]);
    expect(JSON.parse(byRule.result.content)).toHaveProperty("turns");
    const byConfig = await browseElsewhere({ kind: "neither" }, true);
    expect(JSON.parse(byConfig.result.content)).toHaveProperty("turns");
  });
});
