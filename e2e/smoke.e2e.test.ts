// Smoke test of the real plugin inside the real host: it loads (both ways users configure it),
// its tools reach the model, and a history tool call completes with JSON.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startHost, type Host } from "./harness/host.ts";
import { pluginPackageSpec, repoRoot } from "./harness/paths.ts";

const CORE_TOOLS = ["history_browse_turns", "history_browse_messages", "history_pull_message", "history_pull_part", "history_search", "history_sessions"];

function offeredTools(host: Host): string[] {
  const chat = host.mock.chatRequests().at(-1);
  return chat?.body.tools?.map((t) => t.function.name) ?? [];
}

beforeAll(() => {
  // Fail with a clear reason rather than a host that silently skipped the plugin.
  if (!existsSync(join(repoRoot, "src", "index.ts"))) throw new Error("src/index.ts (the plugin entry) does not exist yet");
});

describe("plugin loaded from the working tree (file:// URL)", () => {
  let host: Host;
  beforeAll(async () => {
    host = await startHost({ projectFiles: { "notes.txt": "hello notes\n" } });
  });
  afterAll(async () => {
    await host?.stop();
  });

  test("a user prompt gets a reply and the history tools are offered", async () => {
    const session = await host.createSession();
    const reply = await host.prompt(session.id, "Hello, what can you do?");
    expect(reply.info.role).toBe("assistant");
    expect(reply.info.error).toBeUndefined();
    expect(reply.parts.some((p) => p.type === "text")).toBe(true);
    expect(host.pluginLoadErrors()).toEqual([]);
    expect(offeredTools(host)).toEqual(expect.arrayContaining(CORE_TOOLS));
  });

  test("history_browse_turns completes with JSON containing turns", async () => {
    const session = await host.createSession();
    await host.prompt(session.id, "First turn: remember the word pineapple.");
    const result = await host.callTool(session.id, "history_browse_turns", {});
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("completed");
    expect(result.output).toEqual(expect.objectContaining({ turns: expect.any(Array) }));
  });
});

describe("plugin loaded as opencode-engram@file:<repo root>", () => {
  let host: Host;
  beforeAll(async () => {
    host = await startHost({ plugin: pluginPackageSpec() });
  });
  afterAll(async () => {
    await host?.stop();
  });

  test("the history tools are offered to the model", async () => {
    const session = await host.createSession();
    await host.prompt(session.id, "Hello");
    expect(host.pluginLoadErrors()).toEqual([]);
    expect(offeredTools(host)).toEqual(expect.arrayContaining(CORE_TOOLS));
  });
});
