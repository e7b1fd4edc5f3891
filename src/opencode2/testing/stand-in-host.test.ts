// The stand-in replays transforms as the documented host does (packages/plugin/src/promise/tool.ts
// @196e4612; fact sheet §3): in registration order, the latest add for a name wins, disposing a
// registration reveals what it overrode, and add takes one object with `name` (#43753).

import { describe, expect, it } from "vitest";
import { standInHost, standInRegistrationOnlyContext } from "./stand-in-host.ts";

describe("stand-in tool domain", () => {
  it("replays transforms in order; disposing one reveals the tool it overrode", async () => {
    const { tool } = standInHost({ builtinTools: [{ name: "read", description: "built-in" }] });
    const first = await tool.transform((editor) => editor.add({ name: "t x", description: "first" }));
    const second = await tool.transform((editor) => {
      editor.add({ name: "t_x", description: "second" });
      editor.update("read", (read) => (read.description = "patched"));
    });
    expect(tool.effective().get("t_x")?.description).toBe("second");
    expect(tool.effective().get("read")?.description).toBe("patched");
    await second.dispose();
    expect(tool.effective().get("t_x")?.description).toBe("first");
    expect(tool.effective().get("read")?.description).toBe("built-in");
    await first.dispose();
    expect(tool.effective().has("t_x")).toBe(false);
  });

  it("rejects the positional add form", async () => {
    const { tool } = standInHost();
    await expect(async () => tool.transform((editor) => (editor.add as (...args: unknown[]) => void)("name", {}))).rejects.toThrow(/one object/);
  });
});

describe("stand-in contexts", () => {
  it("offers the three permission variants", () => {
    expect(standInHost({ permission: { kind: "assert" } }).context.permission).toHaveProperty("assert");
    expect(standInHost({ permission: { kind: "rules" } }).context.permission).not.toHaveProperty("assert");
    expect(standInHost({ permission: { kind: "rules" } }).context.agent).toHaveProperty("get");
    expect(standInHost().context.agent).not.toHaveProperty("get");
  });

  it("runs session hooks in order and delivers events emitted after subscribing", async () => {
    const host = standInHost();
    const order: string[] = [];
    await host.context.session.hook("context", () => void order.push("a"));
    await host.context.session.hook("context", async () => void order.push("b"));
    await host.session.run("context", { system: [] });
    expect(order).toEqual(["a", "b"]);
    const controller = new AbortController();
    const iterator = host.context.event.subscribe({ signal: controller.signal })[Symbol.asyncIterator]();
    host.event.emit("session.created", { sessionID: "ses_a" });
    expect((await iterator.next()).value).toMatchObject({ type: "session.created", data: { sessionID: "ses_a" } });
    controller.abort();
    expect((await iterator.next()).done).toBe(true);
    expect(host.event.subscribers).toBe(0);
  });

  it("the registration-only context has exactly the keys of 1.x's embedded pass", () => {
    const { context } = standInRegistrationOnlyContext({ a: 1 });
    expect(Object.keys(context).sort()).toEqual(["agent", "aisdk", "catalog", "command", "integration", "options", "plugin", "reference", "skill"]);
    expect(context.options).toEqual({ a: 1 });
  });
});
