// OpenCode 2's `context` and `compaction` session hooks against a hook registry shaped like
// packages/plugin/src/promise/session.ts@03545fd3 (`hook(name, callback)` resolving to a
// Registration; events mutated in place) and the compaction service's use of `result`
// (packages/core/src/session/compaction.ts@8b9b5784: a set `result` is stored as the
// summary and no model call runs).
import { describe, expect, it } from "vitest";
import { defaultConfig, type EngramConfig } from "../config/schema.ts";
import { GUIDANCE, NAVIGATOR_TITLE } from "../hooks/system.ts";
import { SessionBuilder } from "../history/testing/session-builder.ts";
import { buildView } from "../history/view.ts";
import { MemorySource } from "../store/testing/memory-source.ts";
import { registerSessionHooks, type CompactionEvent, type ContextEvent, type SessionHookDomain } from "./session-hooks.ts";

const HOST_PROMPT = "You are opencode, an agent that helps with software engineering.";

function hookRegistry() {
  const callbacks = new Map<string, (event: never) => Promise<void>>();
  const disposed: string[] = [];
  const domain = {
    async hook(name: string, callback: (event: never) => Promise<void>) {
      callbacks.set(name, callback);
      return { dispose: async () => void disposed.push(name) };
    },
  } as SessionHookDomain;
  const run = async <E>(name: string, event: E): Promise<E> => {
    await callbacks.get(name)!(event as never);
    return event;
  };
  return { domain, run, callbacks, disposed };
}

async function started(configure: (config: EngramConfig) => void = () => {}) {
  const source = new MemorySource();
  const main = new SessionBuilder("ses_main").turns(6);
  source.add({ id: "ses_main", title: "main" }, main.messages);
  source.add({ id: "ses_child", title: "child", parentId: "ses_main", agent: "general" });
  const config = defaultConfig();
  configure(config);
  const logs: string[] = [];
  const hooks = hookRegistry();
  const registrations = await registerSessionHooks(hooks.domain, {
    source,
    config: () => config,
    directory: "/project",
    log: (_level, message) => logs.push(message),
  });
  return { source, main, hooks, registrations, logs };
}

function contextEvent(sessionID: string, extra: Partial<ContextEvent> = {}): ContextEvent {
  return { sessionID, agent: "build", kind: "primary", system: [{ type: "text", text: HOST_PROMPT }], messages: [], ...extra };
}

describe("the context hook", () => {
  it("adds the guidance to every agent request, once", async () => {
    const { hooks } = await started();
    for (let i = 0; i < 2; i++) {
      const event = await hooks.run("context", contextEvent("ses_main"));
      expect(event.system).toEqual([
        { type: "text", text: HOST_PROMPT },
        { type: "text", text: GUIDANCE },
      ]);
    }
    // A request that already carries it (another layer added it) gets no second copy.
    const again = await hooks.run("context", contextEvent("ses_main", { system: [{ type: "text", text: GUIDANCE }] }));
    expect(again.system).toHaveLength(1);
  });

  it("tells a subagent its parent session, from the stored parent id", async () => {
    const { hooks } = await started();
    const event = await hooks.run("context", contextEvent("ses_child", { agent: "general" }));
    const texts = event.system.map((part) => part.text as string);
    expect(texts[1]).toBe(GUIDANCE);
    expect(texts[2]).toContain(NAVIGATOR_TITLE);
    expect(texts[2]).toContain('history_search(session_id="ses_main"');
  });

  it("leaves requests that are not the agent loop alone, and respects the switches", async () => {
    const { hooks } = await started((config) => {
      config.upstream_history.disable_for_agents = ["general"];
    });
    expect((await hooks.run("context", contextEvent("ses_main", { kind: "title" }))).system).toHaveLength(1);
    const child = await hooks.run("context", contextEvent("ses_child", { agent: "general" }));
    expect(child.system.map((part) => part.text)).toEqual([HOST_PROMPT, GUIDANCE]);
    const off = await started((config) => {
      config.history_guidance.enable = false;
    });
    expect((await off.hooks.run("context", contextEvent("ses_main"))).system).toHaveLength(1);
  });

  it("a failing lookup leaves the request as it was and is logged", async () => {
    const { hooks, source, logs } = await started();
    source.getSession = async () => {
      throw new Error("store gone");
    };
    const event = await hooks.run("context", contextEvent("ses_unknown"));
    expect(event.system.map((part) => part.text)).toEqual([HOST_PROMPT, GUIDANCE]);
    expect(logs.join("\n")).toContain("store gone");
  });
});

describe("the compaction hook", () => {
  it("records the chart as the compaction's result, so the host makes no model call", async () => {
    const { hooks, main } = await started();
    const summarized = main.messages.slice(0, 8);
    const event: CompactionEvent = { ...contextEvent("ses_main"), kind: "compaction", messages: summarized.map((m) => ({ id: m.id })) };
    await hooks.run("compaction", event);
    const summary = event.result!.summary;
    expect(summary).toContain("# History chart (session ses_main)");
    // Every message id the chart cites is a stored message of the session, up to the last one summarized.
    const cited = [...summary.matchAll(/"message_id":"(msg_[^"]+)"/g)].map((m) => m[1]!);
    expect(cited.length).toBeGreaterThan(0);
    const stored = buildView("ses_main", main.messages, false).messages.map((m) => m.id);
    for (const id of cited) expect(stored).toContain(id);
    expect(cited).toContain(summarized.at(-1)!.id);
    expect(cited.some((id) => id > summarized.at(-1)!.id)).toBe(false);
  });

  it("charts the stored history up to the tail 2.1.2 keeps beside it, which it does not cite", async () => {
    const { hooks, main } = await started();
    const event: CompactionEvent = { ...contextEvent("ses_main"), kind: "compaction", messages: [{}] };
    await hooks.run("compaction", event);
    // The turns fit 2.1.2's keep budget, so it keeps the last prompt on (kept-tail.ts).
    const lastPrompt = main.messages.findLastIndex((message) => message.role === "user");
    expect(event.result!.summary).toContain(main.messages[lastPrompt - 1]!.id);
    for (const kept of main.messages.slice(lastPrompt)) expect(event.result!.summary).not.toContain(kept.id);
  });

  it("keeps another plugin's result, and stays out when charting is off", async () => {
    const { hooks } = await started();
    const answered: CompactionEvent = { ...contextEvent("ses_main"), result: { summary: "theirs" } };
    await hooks.run("compaction", answered);
    expect(answered.result).toEqual({ summary: "theirs" });
    const off = await started((config) => {
      config.context_charting.enable = false;
    });
    const event: CompactionEvent = contextEvent("ses_main");
    await off.hooks.run("compaction", event);
    expect(event.result).toBeUndefined();
  });

  it("stores the fallback chart when the history cannot be read", async () => {
    const { hooks, source, logs } = await started();
    source.failLoads = true;
    const event: CompactionEvent = contextEvent("ses_main");
    await hooks.run("compaction", event);
    expect(event.result!.summary).toContain("history_browse_turns(num_before=10)");
    expect(logs.join("\n")).toContain("store unavailable");
  });

  it("resolves to one registration per hook, for the plugin's cleanup", async () => {
    const { registrations, hooks } = await started();
    expect([...hooks.callbacks.keys()]).toEqual(["context", "compaction"]);
    for (const registration of registrations) await registration.dispose();
    expect(hooks.disposed).toEqual(["context", "compaction"]);
  });
});
