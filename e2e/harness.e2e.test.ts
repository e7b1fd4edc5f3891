// Self-test of the e2e harness with a probe plugin: proves the mock LLM, the host fixture and
// the tool-call helper work, independently of the real plugin under src/.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { shellCall, subagentCall } from "./harness/builtin-tools.ts";
import { startHost, type Host } from "./harness/host.ts";
import { onOpenCode2 } from "./harness/hosts.ts";
import { CANNED_SUMMARY, lastUserText, systemText } from "./harness/mock-llm.ts";
import { repoRoot } from "./harness/paths.ts";
import { toolParts } from "./harness/tool-call.ts";

const PROBE_SYSTEM_MARKER = "PROBE-SYSTEM-MARKER"; // appended to the system prompt by the probe
const probe = pathToFileURL(join(repoRoot, "e2e", "fixtures", "probe-plugin.ts")).href;

// The probe is a 1.x plugin (a function export); OpenCode 2 runs the harness under every other file.
describe.skipIf(onOpenCode2)("e2e harness (probe plugin, a 1.x plugin)", () => {
  let host: Host;
  beforeAll(async () => {
    host = await startHost({ plugin: probe, projectFiles: { "notes.txt": "hello notes\n" } });
  });
  afterAll(async () => {
    await host?.stop();
  });

  test("a prompt gets the default reply and the request is recorded", async () => {
    const session = await host.createSession();
    const reply = await host.prompt(session.id, "hello there");
    expect(reply.info.role).toBe("assistant");
    expect(reply.parts.some((p) => p.type === "text")).toBe(true);
    const chat = host.mock.chatRequests().at(-1);
    expect(chat && lastUserText(chat.body)).toContain("hello there");
    // The plugin's system hook reached the model, and the plugin tool was offered.
    expect(chat && systemText(chat.body)).toContain(PROBE_SYSTEM_MARKER);
    expect(chat?.body.tools?.map((t) => t.function.name)).toContain("probe_echo");
    expect(chat?.body.max_tokens).toBeGreaterThan(0);
  });

  test("callTool returns the parsed output of a plugin tool", async () => {
    const session = await host.createSession();
    const result = await host.callTool(session.id, "probe_echo", { text: "x" });
    expect(result.status).toBe("completed");
    expect(result.output).toMatchObject({ echo: "x", sessionID: session.id, agent: "build" });
    expect(host.mock.pending()).toBe(0);
  });

  test("a throwing tool is reported as an error", async () => {
    const session = await host.createSession();
    const result = await host.callTool(session.id, "probe_echo", { text: "throw" });
    expect(result.status).toBe("error");
    expect(result.error).toContain("probe asked to throw");
  });

  test("reasoning, built-in tools, a subagent and compaction all run against the mock", async () => {
    const session = await host.createSession();
    host.mock.push(
      { reasoning: "thinking it over", toolCalls: [{ name: "bash", args: { command: "echo hi", description: "Say hi" } }] },
      { toolCalls: [{ name: "task", args: { description: "Probe sub", prompt: "do the sub thing", subagent_type: "general" } }] },
      { text: "child answer" },
      { text: "all done" },
    );
    await host.prompt(session.id, "run things");
    const messages = await host.messages(session.id);
    const [bash] = toolParts(messages, "bash");
    expect(bash?.state.status).toBe("completed");
    expect(bash?.state.output).toContain("hi");
    expect(messages.some((m) => m.parts.some((p) => p.type === "reasoning"))).toBe(true);
    const [task] = toolParts(messages, "task");
    expect(task?.state.output).toContain("child answer");
    const children = await host.children(session.id);
    expect(children).toHaveLength(1);

    const before = host.mock.requests.length;
    expect(await host.summarize(session.id)).toBe(true);
    const compaction = host.mock.requests.slice(before).find((r) => r.kind === "compaction");
    expect(compaction?.bytes).toBeGreaterThan(0);
    const after = await host.messages(session.id);
    const summary = after.find((m) => m.info.role === "assistant" && m.info.summary === true);
    expect(JSON.stringify(summary?.parts)).toContain(CANNED_SUMMARY.trim().split("\n")[0]);
  });

  test("reported usage near the context limit triggers auto compaction", async () => {
    const session = await host.createSession();
    host.mock.push({ text: "big step", usage: { prompt_tokens: 99_000, completion_tokens: 600 } });
    await host.prompt(session.id, "fill the context");
    const messages = await host.messages(session.id);
    const compaction = messages.flatMap((m) => m.parts).find((p) => p.type === "compaction");
    expect(compaction).toMatchObject({ auto: true });
    expect(host.mock.requestsOf("compaction")).not.toHaveLength(0);
  });

  test("an HTTP error from the model is stored on the assistant message", async () => {
    const session = await host.createSession();
    host.mock.push({ error: { status: 400, message: "mock bad request" } });
    const reply = await host.prompt(session.id, "fail please");
    expect(reply.info.error?.name).toBe("APIError");
  });
});

// The same harness checks on OpenCode 2, with the real plugin (2.1.2 has no probe of its own kind).
describe.skipIf(!onOpenCode2)("e2e harness on OpenCode 2 (the real plugin)", () => {
  let host: Host;
  beforeAll(async () => {
    host = await startHost({ projectFiles: { "notes.txt": "hello notes\n" } });
  });
  afterAll(async () => {
    await host?.stop();
  });

  test("reasoning, built-in tools, a subagent and compaction all run against the mock", async () => {
    const session = await host.createSession();
    host.mock.push(
      { reasoning: "thinking it over", toolCalls: [shellCall(2, "echo hi", "Say hi")] },
      { toolCalls: [subagentCall(2, "Probe sub", "do the sub thing")] },
      { text: "child answer" },
      { text: "all done" },
    );
    await host.prompt(session.id, "run things");
    const messages = await host.messages(session.id);
    const [shell] = toolParts(messages, "shell");
    expect(shell?.state.status).toBe("completed");
    expect(shell?.state.output).toContain("hi");
    expect(messages.some((m) => m.parts.some((p) => p.type === "reasoning"))).toBe(true);
    const [subagent] = toolParts(messages, "subagent");
    expect(subagent?.state.output).toContain("child answer");
    expect(await host.children(session.id)).toHaveLength(1);

    // The plugin's chart is the compaction: no model call, the summary stored as the chart.
    const before = host.mock.requests.length;
    expect(await host.summarize(session.id)).toBe(true);
    expect(host.mock.requests.slice(before)).toEqual([]);
    const after = await host.messages(session.id);
    const summary = after.find((m) => m.info.role === "assistant" && m.info.summary === true);
    expect(JSON.stringify(summary?.parts)).toContain(`History chart (session ${session.id})`);
  });

  test("a failing built-in tool is reported as an error", async () => {
    const session = await host.createSession();
    const result = await host.callTool(session.id, "read", { path: `${host.directory}/no-such-file.txt` });
    expect(result.status).toBe("error");
    expect(result.error).toBeTruthy();
  });

  test("an HTTP error from the model is stored on the assistant message", async () => {
    const session = await host.createSession();
    host.mock.push({ error: { status: 400, message: "mock bad request" } });
    const reply = await host.prompt(session.id, "fail please");
    expect(reply.info.error?.name).toBe("provider.invalid-request");
  });
});
