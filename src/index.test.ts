import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as entry from "./index.ts";

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  main: string;
  exports: Record<string, string>;
};

describe("the package entry", () => {
  it("exports one default definition for both hosts: id, server (1.x) and setup (2.x), and no tui", () => {
    expect(Object.keys(entry)).toEqual(["default"]);
    const plugin = entry.default as Record<string, unknown>;
    expect(Object.keys(plugin).sort()).toEqual(["id", "server", "setup"]);
    expect(plugin.id).toBe("opencode-engram");
    expect(typeof plugin.server).toBe("function");
    expect(typeof plugin.setup).toBe("function");
  });

  it("resolves for OpenCode 2 as <name>/server and for 1.x as the package main, both the built entry", () => {
    // tsconfig.build.json compiles src/ into dist/ with the same layout.
    expect(manifest.exports["./server"]).toBe("./dist/index.js");
    expect(manifest.exports["."]).toBe("./dist/index.js");
    expect(manifest.main).toBe("./dist/index.js");
  });

  it("a registration-only context (1.x's embedded 2.x pass) registers nothing", async () => {
    const calls: string[] = [];
    const noted = (name: string) => () => {
      calls.push(name);
    };
    // The domains of @opencode-ai/plugin 1.18.33's dist/v2/promise/context.d.ts, each recording any use.
    const context = Object.fromEntries(
      ["agent", "aisdk", "catalog", "command", "integration", "plugin", "reference", "skill"].map((name) => [
        name,
        { transform: noted(name), hook: noted(name), reload: noted(name), add: noted(name) },
      ]),
    );
    const setup = (entry.default as { setup(ctx: unknown): Promise<unknown> }).setup;
    expect(await setup({ options: {}, ...context })).toBeUndefined();
    expect(await setup(undefined)).toBeUndefined();
    expect(calls).toEqual([]);
  });
});
