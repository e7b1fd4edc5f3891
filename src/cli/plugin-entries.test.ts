import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configGeneration, entryForm, listingAdvice, pluginEntries, readPluginLists } from "./plugin-entries.ts";
import { scratchDir } from "../util/testing/scratch-dir.ts";

/** A checkout of this package: package.json named opencode-engram, server.js loading dist/. */
function checkout(root: string, built = true): string {
  const dir = join(root, "engram-checkout");
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(join(dir, "package.json"), '{"name": "opencode-engram"}');
  writeFileSync(join(dir, "server.js"), 'export { default } from "./dist/index.js";\n');
  writeFileSync(join(dir, "src", "index.ts"), "export default {};\n");
  if (built) {
    mkdirSync(join(dir, "dist"), { recursive: true });
    writeFileSync(join(dir, "dist", "index.js"), "export default {};\n");
  }
  return dir;
}

describe("plugin entries", () => {
  it("package specs: what either host does with them, and other plugins ignored", () => {
    const pkg = "/home/me/engram";
    const dir = scratchDir("entries-specs");
    const tarball = join(dir, "opencode-engram-0.3.0.tgz");
    writeFileSync(tarball, "");
    for (const generation of ["opencode-1", "opencode-2"] as const) {
      expect(entryForm("opencode-engram", "/cfg", pkg, generation)?.form).toMatch(/installs opencode-engram@latest from npm/);
      expect(entryForm("opencode-engram@0.2.0", "/cfg", pkg, generation)).toEqual({ form: "npm package pinned to 0.2.0" });
      expect(entryForm(`opencode-engram@file:${dir}`, "/cfg", pkg, generation)).toEqual({ form: "npm spec of a local folder: the host links that folder" });
      expect(entryForm(`file:${tarball}`, "/cfg", pkg, generation)).toEqual({
        form: "npm spec of a local tarball (npm pack): the host installs it as a package",
      });
      expect(entryForm("file:./opencode-engram-0.3.0.tgz", dir, pkg, generation)?.problem).toBeUndefined();
      expect(entryForm("file:/gone/opencode-engram-0.3.0.tgz", "/cfg", pkg, generation)?.problem).toBe("/gone/opencode-engram-0.3.0.tgz does not exist");
      expect(entryForm("opencode-wakatime", "/cfg", pkg, generation)).toBeUndefined();
      expect(entryForm("/elsewhere/other-plugin", "/cfg", pkg, generation)).toBeUndefined();
    }
  });

  it("a checkout's folder: OpenCode 2 loads its server.js once built; 1.x loads it as a package", () => {
    const dir = checkout(scratchDir("entries-dir"));
    // Ours by its package.json, wherever doctor itself runs from.
    expect(entryForm(dir, "/cfg", "/installed/elsewhere", "opencode-2")).toEqual({
      form: "absolute path, directory: the host loads its server.js (else index.js)",
    });
    expect(entryForm(dir, "/cfg", "/installed/elsewhere", "opencode-1")).toEqual({ form: "absolute path, package directory: loaded through its package.json" });
    expect(entryForm("./engram-checkout", join(dir, ".."), "/nowhere", "opencode-2")?.form).toMatch(/^relative path, directory/);
    const unbuilt = checkout(scratchDir("entries-unbuilt"), false);
    expect(entryForm(unbuilt, "/cfg", "/nowhere", "opencode-2")?.problem).toMatch(/dist is not built: run `npm ci`/);
    expect(entryForm(`file:${dir}`, "/cfg", "/nowhere", "opencode-2")?.form).toMatch(/npm spec of a local folder/);
  });

  it("a file path or file URL: loaded as is on 1.x, dropped by OpenCode 2", () => {
    const dir = checkout(scratchDir("entries-file"));
    const index = join(dir, "src", "index.ts");
    expect(entryForm(`file://${index}`, "/cfg", "/nowhere", "opencode-1")).toEqual({ form: "file URL, file path: loaded as is" });
    expect(entryForm(index, "/cfg", "/nowhere", "opencode-1")).toEqual({ form: "absolute path, file path: loaded as is" });
    for (const entry of [`file://${index}`, index, join(dir, "server.js")]) {
      expect(entryForm(entry, "/cfg", "/nowhere", "opencode-2")?.problem).toMatch(/OpenCode 2 drops every configured file path/);
    }
    expect(entryForm(join(dir, "missing.ts"), "/cfg", "/nowhere", "opencode-1")?.problem).toMatch(/does not exist/);
  });

  it("reads `plugins` and `plugin` of JSONC files, options tuples included, and names the key", () => {
    const root = scratchDir("entries-keys");
    const dir = checkout(root);
    const both = join(root, "opencode.jsonc");
    writeFileSync(both, `{\n  // ours, twice\n  "plugins": ["${dir}", "other-plugin"],\n  "plugin": [["opencode-engram@0.2.0", {"x": 1}],],\n}`);
    const file = readPluginLists(both);
    expect(pluginEntries(file, "/nowhere", "opencode-2")).toEqual([
      { key: "plugins", entry: dir, form: "absolute path, directory: the host loads its server.js (else index.js)" },
      { key: "plugin", entry: "opencode-engram@0.2.0", form: "npm package pinned to 0.2.0" },
    ]);
    expect(pluginEntries(file, "/nowhere", "opencode-1")[0]!.problem).toBe('OpenCode 1.x reads its plugins from "plugin", not "plugins"');
    expect(configGeneration([file])).toBe("opencode-2");
    const old = join(root, "old.json");
    writeFileSync(old, '{"plugin": ["opencode-engram"]}');
    expect(configGeneration([readPluginLists(old)])).toBeUndefined();
    const bad = join(root, "opencode.json");
    writeFileSync(bad, '{"plugin": [');
    expect(readPluginLists(bad).error).toBeDefined();
  });

  it("advises only forms the host loads", () => {
    expect(listingAdvice("opencode-2", "/src/engram")).toMatch(
      /"plugins" list: add "opencode-engram@<version>" \(npm\) or a checkout's folder \("\/src\/engram"\)/,
    );
    expect(listingAdvice("opencode-2", "/src/engram")).not.toMatch(/file:\/\/|index\.ts/);
    expect(listingAdvice("opencode-1", "/src/engram")).toMatch(/"plugin" list: .*file:\/\/ URL to a checkout's src\/index\.ts/);
  });
});
