import { describe, expect, it } from "vitest";
import { defaultConfig, type EngramConfig } from "../config/schema.ts";
import { GUIDANCE, GUIDANCE_TITLE, isInternalRequest, NAVIGATOR_TITLE } from "./system.ts";
import { createHookSet } from "../opencode1/hooks.ts";
import { MemorySource } from "../store/testing/memory-source.ts";

const HOST_PROMPT = "You are opencode, an interactive CLI tool that helps users with software engineering tasks.";

function setup() {
  const source = new MemorySource();
  source.add({ id: "ses_parent", title: "main" });
  source.add({ id: "ses_child", title: "child (@general subagent)", parentId: "ses_parent", agent: "general" });
  const config: EngramConfig = defaultConfig();
  const logs: string[] = [];
  const { hooks, onEvent } = createHookSet({ source, config: () => config, directory: "/project", log: (_l, m) => logs.push(m) });
  const request = async (sessionID: string | undefined, system = [HOST_PROMPT]): Promise<string[]> => {
    const output = { system: [...system] };
    await hooks["experimental.chat.system.transform"]!({ sessionID, model: {} as never }, output);
    return output.system;
  };
  return { source, config, hooks, onEvent, request, logs };
}

describe("history guidance", () => {
  it("is added to every request of an agent, not only the first", async () => {
    const { request } = setup();
    for (let i = 0; i < 3; i++) {
      const system = await request("ses_parent");
      expect(system).toEqual([HOST_PROMPT, GUIDANCE]);
    }
    expect(GUIDANCE.length).toBeLessThan(1000);
  });

  it("is not added to internal requests", async () => {
    const { request } = setup();
    expect(await request("ses_parent", ["You are a title generator. You output ONLY a thread title."])).toHaveLength(1);
    expect(await request("ses_parent", ["You are a context summarization agent. You are given…"])).toHaveLength(1);
    // No session: the host generating an agent definition.
    expect(await request(undefined)).toHaveLength(1);
  });

  it("is not added to the compaction summarizer's request", async () => {
    const { hooks, request } = setup();
    await hooks["experimental.session.compacting"]!({ sessionID: "ses_parent" }, { context: [] });
    expect(await request("ses_parent", ["a custom compaction agent prompt"])).toHaveLength(1);
  });

  it("is not added twice and can be switched off", async () => {
    const { config, request } = setup();
    expect(await request("ses_parent", [HOST_PROMPT, GUIDANCE])).toEqual([HOST_PROMPT, GUIDANCE]);
    config.history_guidance.enable = false;
    expect(await request("ses_parent")).toEqual([HOST_PROMPT]);
  });

  it("recognises the host's internal prompts", () => {
    expect(isInternalRequest(["  You are a title generator. …"])).toBe(true);
    expect(isInternalRequest(["Summarize what was done in this conversation. …"])).toBe(true);
    expect(isInternalRequest([HOST_PROMPT])).toBe(false);
  });
});

describe("subagent navigator", () => {
  it("gives a child session its parent's id, looked up once", async () => {
    const { request, source } = setup();
    const first = await request("ses_child");
    expect(first).toHaveLength(3);
    const navigator = first[2]!;
    expect(navigator.startsWith(NAVIGATOR_TITLE)).toBe(true);
    expect(navigator).toContain('history_search(session_id="ses_parent"');
    expect(navigator).toContain("intent, not the discussion");
    await request("ses_child");
    await request("ses_parent");
    await request("ses_parent");
    expect(source.getSessionCalls).toBe(2);
  });

  it("uses session.created events without asking the host", async () => {
    const { request, source, onEvent } = setup();
    await onEvent({ type: "session.created", properties: { sessionID: "ses_new", info: { id: "ses_new", parentID: "ses_parent", agent: "explore" } } });
    const system = await request("ses_new");
    expect(system.some((block) => block.includes('"ses_parent"'))).toBe(true);
    expect(source.getSessionCalls).toBe(0);
  });

  it("remembers that an unknown session has no parent", async () => {
    const { request, source } = setup();
    expect(await request("ses_unknown")).toHaveLength(2);
    expect(await request("ses_unknown")).toHaveLength(2);
    expect(source.getSessionCalls).toBe(1);
  });

  it("is switched off per agent and globally", async () => {
    const { config, request, hooks } = setup();
    config.upstream_history.disable_for_agents = ["general"];
    expect((await request("ses_child")).some((block) => block.includes(NAVIGATOR_TITLE))).toBe(false);
    // The agent of the latest prompt wins over the session's recorded agent.
    await hooks["chat.message"]!({ sessionID: "ses_child", agent: "explore" }, { message: {} as never, parts: [] });
    expect((await request("ses_child")).some((block) => block.includes(NAVIGATOR_TITLE))).toBe(true);
    config.upstream_history.disable_for_agents = [];
    config.upstream_history.enable = false;
    expect((await request("ses_child")).some((block) => block.includes(NAVIGATOR_TITLE))).toBe(false);
  });

  it("never throws into the host when the lookup fails", async () => {
    const { request, source, logs } = setup();
    source.getSession = async () => {
      throw new Error("network down");
    };
    expect(await request("ses_child")).toEqual([HOST_PROMPT, GUIDANCE]);
    expect(logs.some((line) => line.includes("network down"))).toBe(true);
  });
});

it("guidance names the tools and the record of truth", () => {
  expect(GUIDANCE.startsWith(GUIDANCE_TITLE)).toBe(true);
  for (const word of ["history_search", "history_browse_turns", "history_pull_message", "record of truth"]) {
    expect(GUIDANCE).toContain(word);
  }
});
