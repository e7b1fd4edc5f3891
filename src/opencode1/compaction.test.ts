import { describe, expect, it } from "vitest";
import { visibleIndex, buildView } from "../history/view.ts";
import { defaultConfig, type EngramConfig } from "../config/schema.ts";
import { SUMMARIZER_MAX_OUTPUT_TOKENS, SUMMARIZER_PROMPT, type TransformMessage } from "./compaction.ts";
import type { HookDeps } from "../hooks/deps.ts";
import { createHookSet } from "./hooks.ts";
import { SessionBuilder } from "../history/testing/session-builder.ts";
import { MemorySource } from "../store/testing/memory-source.ts";

const SESSION = "ses_main";

interface Harness {
  hooks: ReturnType<typeof createHookSet>["hooks"];
  onEvent: ReturnType<typeof createHookSet>["onEvent"];
  source: MemorySource;
  builder: SessionBuilder;
  logs: string[];
  config: EngramConfig;
  clock: { now: number };
}

function harness(turns = 20): Harness {
  const builder = new SessionBuilder(SESSION).turns(turns);
  const source = new MemorySource();
  source.add({ id: SESSION, title: "main" }, builder.messages);
  const logs: string[] = [];
  const config = defaultConfig();
  const clock = { now: 1_000_000 };
  const deps: HookDeps = {
    source,
    config: () => config,
    directory: "/project",
    log: (level, message) => logs.push(`${level}: ${message}`),
    now: () => clock.now,
  };
  const { hooks, onEvent } = createHookSet(deps);
  return { hooks, onEvent, source, builder, logs, config, clock };
}

/** The history as the host hands it to messages.transform: raw `{info, parts}` entries. */
function rawHistory(builder: SessionBuilder): TransformMessage[] {
  return builder.messages.map((message) => ({
    info: { id: message.id, sessionID: message.sessionId, role: message.role },
    parts: message.parts.map((part) => ({ type: part.kind })),
  }));
}

/** Runs the host's hook sequence of a manual compaction up to the summary text; returns the stored text. */
async function compact(
  h: Harness,
  summarizerText = "## Objective\n- raw summary",
): Promise<{
  prompt?: string;
  trimmed: TransformMessage[];
  params: { maxOutputTokens: number | undefined; options: Record<string, unknown>; temperature: number; topP: number; topK: number };
  system: string[];
  text: string;
}> {
  const history = rawHistory(h.builder);
  const compactionMessage = h.builder.compaction();
  const compacting = { context: [] as string[], prompt: undefined as string | undefined };
  await h.hooks["experimental.session.compacting"]!({ sessionID: SESSION }, compacting);
  const transform = { messages: history };
  await h.hooks["experimental.chat.messages.transform"]!({}, transform as never);
  const summary = h.builder.summary("");
  await h.onEvent({
    type: "message.updated",
    properties: { sessionID: SESSION, info: { id: summary.id, sessionID: SESSION, role: "assistant", summary: true } },
  });
  const system = { system: ["You are a context summarization agent. You are given a conversation…"] };
  await h.hooks["experimental.chat.system.transform"]!({ sessionID: SESSION, model: {} as never }, system);
  const params = {
    maxOutputTokens: 4096 as number | undefined,
    options: { thinking: { type: "enabled", budgetTokens: 8000 } } as Record<string, unknown>,
    temperature: 0,
    topP: 1,
    topK: 0,
  };
  await h.hooks["chat.params"]!(
    { sessionID: SESSION, agent: "compaction", model: {} as never, provider: {} as never, message: { id: compactionMessage.id } as never },
    params,
  );
  const output = { text: summarizerText };
  await h.hooks["experimental.text.complete"]!({ sessionID: SESSION, messageID: summary.id, partID: "prt_summary" }, output);
  // The host stores the replaced text on the summary.
  summary.parts = [{ kind: "text", id: "prt_summary", text: output.text }];
  return { prompt: compacting.prompt, trimmed: transform.messages, params, system: system.system, text: output.text };
}

describe("compaction charting", () => {
  it("makes the summarizer request nearly free and stores the chart as the summary", async () => {
    const h = harness(20);
    const result = await compact(h);
    expect(result.prompt).toBe(SUMMARIZER_PROMPT);
    expect(result.trimmed).toEqual([]);
    expect(result.params.maxOutputTokens).toBe(SUMMARIZER_MAX_OUTPUT_TOKENS);
    expect(result.params.options).not.toHaveProperty("thinking");
    // The summarizer gets no guidance block.
    expect(result.system).toHaveLength(1);
    expect(result.text).toContain(`# History chart (session ${SESSION})`);
    expect(result.text).not.toContain("raw summary");
    // Every id the chart cites works in the session's own view afterwards.
    h.builder.user("what next?");
    const after = buildView(SESSION, h.builder.messages, true);
    const ids = result.text.match(/msg_[A-Za-z0-9]+/g) ?? [];
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(() => visibleIndex(after, id)).not.toThrow();
    expect(h.logs).toEqual([]);
  });

  it("stores the fallback, not the summarizer text, when the chart cannot be built", async () => {
    const h = harness(5);
    h.source.failLoads = true;
    const result = await compact(h);
    expect(result.text).toContain(SESSION);
    expect(result.text).toContain("history_browse_turns");
    expect(result.text).not.toContain("raw summary");
    expect(h.logs.some((line) => line.startsWith("error:"))).toBe(true);
  });

  it("leaves text parts of other sessions and of non-summary messages untouched", async () => {
    const h = harness(5);
    await h.hooks["experimental.session.compacting"]!({ sessionID: SESSION }, { context: [] });
    await h.onEvent({ type: "message.updated", properties: { info: { id: "msg_999990", sessionID: SESSION, role: "assistant", summary: true } } });

    const other = { text: "child reply" };
    await h.hooks["experimental.text.complete"]!({ sessionID: "ses_other", messageID: "msg_1", partID: "prt_1" }, other);
    expect(other.text).toBe("child reply");

    const notSummary = { text: "a normal reply" };
    await h.hooks["experimental.text.complete"]!({ sessionID: SESSION, messageID: "msg_999999", partID: "prt_2" }, notSummary);
    expect(notSummary.text).toBe("a normal reply");
  });

  it("does nothing to sessions that are not compacting", async () => {
    const h = harness(3);
    const history = rawHistory(h.builder);
    const transform = { messages: history };
    await h.hooks["experimental.chat.messages.transform"]!({}, transform as never);
    expect(transform.messages).toHaveLength(6);
    const params = { maxOutputTokens: 4096 as number | undefined, options: {}, temperature: 0, topP: 1, topK: 0 };
    await h.hooks["chat.params"]!({ sessionID: SESSION, agent: "build", model: {} as never, provider: {} as never, message: {} as never }, params);
    expect(params.maxOutputTokens).toBe(4096);
    const text = { text: "reply" };
    await h.hooks["experimental.text.complete"]!({ sessionID: SESSION, messageID: "msg_x", partID: "prt_x" }, text);
    expect(text.text).toBe("reply");
  });

  it("trims only the compacting session's history, once", async () => {
    const h = harness(3);
    await h.hooks["experimental.session.compacting"]!({ sessionID: SESSION }, { context: [] });
    const otherSession = { messages: [{ info: { id: "msg_1", sessionID: "ses_other", role: "user" }, parts: [{ type: "text" }] }] };
    await h.hooks["experimental.chat.messages.transform"]!({}, otherSession as never);
    expect(otherSession.messages).toHaveLength(1);

    const first = { messages: rawHistory(h.builder) };
    await h.hooks["experimental.chat.messages.transform"]!({}, first as never);
    expect(first.messages).toHaveLength(0);
    const second = { messages: rawHistory(h.builder) };
    await h.hooks["experimental.chat.messages.transform"]!({}, second as never);
    expect(second.messages).toHaveLength(6);
  });

  it.each(["session.error", "session.idle", "session.compacted"])("clears pending state on %s", async (type) => {
    const h = harness(3);
    await h.hooks["experimental.session.compacting"]!({ sessionID: SESSION }, { context: [] });
    await h.onEvent({ type, properties: { sessionID: SESSION } });
    const transform = { messages: rawHistory(h.builder) };
    await h.hooks["experimental.chat.messages.transform"]!({}, transform as never);
    expect(transform.messages).toHaveLength(6);
    const text = { text: "reply" };
    await h.hooks["experimental.text.complete"]!({ sessionID: SESSION, messageID: "msg_x", partID: "prt_x" }, text);
    expect(text.text).toBe("reply");
  });

  it("forgets a compaction that never finished", async () => {
    const h = harness(3);
    await h.hooks["experimental.session.compacting"]!({ sessionID: SESSION }, { context: [] });
    h.clock.now += 11 * 60 * 1000;
    const transform = { messages: rawHistory(h.builder) };
    await h.hooks["experimental.chat.messages.transform"]!({}, transform as never);
    expect(transform.messages).toHaveLength(6);
  });

  it("blanks further text parts of the same summary and leaves the next reply alone", async () => {
    const h = harness(3);
    const result = await compact(h);
    expect(result.text).toContain("History chart");
    const summaryId = h.builder.messages.at(-1)!.id;
    const again = { text: "more raw summary" };
    await h.hooks["experimental.text.complete"]!({ sessionID: SESSION, messageID: summaryId, partID: "prt_more" }, again);
    expect(again.text).toBe("");
    const next = { text: "continuing" };
    await h.hooks["experimental.text.complete"]!({ sessionID: SESSION, messageID: "msg_999999", partID: "prt_next" }, next);
    expect(next.text).toBe("continuing");
  });

  it("is inert when context_charting is disabled", async () => {
    const h = harness(3);
    h.config.context_charting.enable = false;
    const compacting = { context: [] as string[], prompt: undefined as string | undefined };
    await h.hooks["experimental.session.compacting"]!({ sessionID: SESSION }, compacting);
    expect(compacting.prompt).toBeUndefined();
    const transform = { messages: rawHistory(h.builder) };
    await h.hooks["experimental.chat.messages.transform"]!({}, transform as never);
    expect(transform.messages).toHaveLength(6);
  });
});

describe("a summary stored without text", () => {
  it("gets the chart in the next request, once, without touching summaries that have text", async () => {
    const h = harness(6);
    const compactionMessage = h.builder.compaction();
    const summary = h.builder.summary("");
    summary.parts = [];
    const context = (): TransformMessage[] => [
      { info: { id: compactionMessage.id, sessionID: SESSION, role: "user" }, parts: [{ type: "compaction" }] },
      { info: { id: summary.id, sessionID: SESSION, role: "assistant", summary: true }, parts: [{ type: "step-start" }] },
      { info: { id: "msg_999999", sessionID: SESSION, role: "user" }, parts: [{ type: "text", text: "go on" }] },
    ];
    const first = { messages: context() };
    await h.hooks["experimental.chat.messages.transform"]!({}, first as never);
    const added = first.messages[1]!.parts.filter((part) => part.type === "text");
    expect(added).toHaveLength(1);
    expect(String(added[0]!.text)).toContain(`# History chart (session ${SESSION})`);
    expect(first.messages).toHaveLength(3);
    // The host may hand the same objects again: no second copy.
    await h.hooks["experimental.chat.messages.transform"]!({}, first as never);
    expect(first.messages[1]!.parts.filter((part) => part.type === "text")).toHaveLength(1);

    const withText = context();
    withText[1]!.parts.push({ type: "text", text: "the chart" });
    await h.hooks["experimental.chat.messages.transform"]!({}, { messages: withText } as never);
    expect(withText[1]!.parts).toHaveLength(2);
  });
});
