import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FakeClient } from "../store/testing/fake-client.ts";
import { callTool, startPlugin, toolContext } from "./testing/plugin-under-test.ts";
import { RawSessionBuilder } from "../tools/testing/raw-session.ts";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("plugin dispose", () => {
  it("ends the regex worker, after which a new search starts a fresh one", async () => {
    const fake = new FakeClient();
    const session = new RawSessionBuilder("ses_dispose");
    session.user("The error was E_TIMEOUT 504.");
    session.assistant("Retried with backoff.");
    fake.addSession("ses_dispose", session.messages);
    const plugin = await startPlugin({ fake });
    const context = toolContext("ses_caller", plugin.directory);
    const search = () => callTool(plugin, "history_search", { query: "E_\\w+ \\d{3}", regex: true, session_id: "ses_dispose" }, context);
    expect(await search()).toMatchObject({ ok: true });

    const terminate = vi.spyOn(Worker.prototype, "terminate");
    await plugin.hooks.dispose!();
    expect(terminate).toHaveBeenCalledTimes(1);
    // Disposing twice (or with nothing running) is harmless.
    await plugin.hooks.dispose!();
    expect(terminate).toHaveBeenCalledTimes(1);
    terminate.mockRestore();

    // The host creates a new plugin instance after a dispose; this one still answers if called.
    expect(await search()).toMatchObject({ ok: true });
    await plugin.hooks.dispose!();
  });
});

describe("plugin config hook", () => {
  it("makes reading other projects ask unless the user's config names the permission", async () => {
    const plugin = await startPlugin({ fake: new FakeClient() });
    const hostConfig = { permission: { "*": "allow" } } as Parameters<NonNullable<typeof plugin.hooks.config>>[0];
    await plugin.hooks.config!(hostConfig);
    expect(hostConfig.permission).toEqual({ "*": "allow", engram_other_projects: "ask" });
    const denied = { permission: { engram_other_projects: "deny" } } as unknown as typeof hostConfig;
    await plugin.hooks.config!(denied);
    expect(denied.permission).toEqual({ engram_other_projects: "deny" });
    await plugin.hooks.dispose!();
  });
});
