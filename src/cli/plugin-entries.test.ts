import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { entryForm, pluginEntries } from "./plugin-entries.ts";
import { scratchDir } from "../util/testing/scratch-dir.ts";

describe("plugin entries", () => {
  it("says what the host does with each form of entry, and ignores other plugins", () => {
    const pkg = "/home/me/engram";
    expect(entryForm("opencode-engram", pkg)).toMatch(/installs opencode-engram@latest from npm/);
    expect(entryForm("opencode-engram@0.2.0", pkg)).toBe("npm package pinned to 0.2.0");
    expect(entryForm("opencode-engram@file:/home/me/engram", pkg)).toMatch(/links that folder/);
    expect(entryForm("file:///home/me/engram/src/index.ts", pkg)).toMatch(/file URL/);
    expect(entryForm("/home/me/engram/src/index.ts", pkg)).toMatch(/absolute path/);
    expect(entryForm("./node_modules/opencode-engram", pkg)).toMatch(/relative path/);
    expect(entryForm("opencode-wakatime", pkg)).toBeUndefined();
  });

  it("reads JSONC config files, options-tuple entries included, and reports one that does not parse", () => {
    const dir = scratchDir("entries");
    const good = join(dir, "opencode.jsonc");
    writeFileSync(good, '{\n  // ours, with options\n  "plugin": [["opencode-engram@0.2.0", {"x": 1}], "other-plugin",],\n}');
    expect(pluginEntries(good, "/nowhere")).toEqual({ path: good, entries: [{ entry: "opencode-engram@0.2.0", form: "npm package pinned to 0.2.0" }] });
    const bad = join(dir, "opencode.json");
    writeFileSync(bad, '{"plugin": [');
    expect(pluginEntries(bad, "/nowhere").error).toBeDefined();
  });
});
