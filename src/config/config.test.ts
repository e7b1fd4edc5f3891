import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseJsonc } from "./jsonc.ts";
import { globalConfigDir, loadConfig } from "./load.ts";
import { defaultConfig } from "./schema.ts";
import { resolveConfig } from "./validate.ts";
import { compileSelectors } from "../history/tool-visibility.ts";
import { scratchDir } from "../util/testing/scratch-dir.ts";

describe("jsonc", () => {
  it("allows comments and trailing commas but keeps them inside strings", () => {
    expect(
      parseJsonc(`{
      // line comment
      "a": "http://x//y", /* block */
      "b": [1, 2,],
      "c": "/* not a comment */",
    }`),
    ).toEqual({ a: "http://x//y", b: [1, 2], c: "/* not a comment */" });
    expect(() => parseJsonc("{ broken")).toThrow();
  });

  it("reports a syntax error at its line and column in the file as written, comments included", () => {
    const root = scratchDir("jsonc");
    writeFileSync(
      join(root, "opencode-engram.jsonc"),
      [
        "\ufeff{",
        "  // browse: see docs/config.md, /* not a block */",
        "  /* a block comment",
        '     over two lines */ "browse": { "preview_chars": 100, },',
        '  "search": { "message_limit": 5 }',
        '  "pull": {}',
        "}",
      ].join("\r\n"),
    );
    const { config, problems } = loadConfig([root]);
    expect(problems).toEqual([
      `${join(root, "opencode-engram.jsonc")}: cannot be read as JSON (comma expected at line 6, column 3); using the other layers and defaults`,
    ]);
    expect(config).toEqual(defaultConfig());
    expect(() => parseJsonc('{"a": 1}\n\n   x')).toThrow(/^invalid symbol at line 3, column 4$/);
    expect(() => parseJsonc('{"a": "open')).toThrow(/^unexpected end of string at line 1, column 7$/);
  });
});

describe("config layering", () => {
  it("merges field by field, later layers win, invalid values keep the default and are reported", () => {
    const { config, problems } = resolveConfig([
      { source: "global", value: { browse: { preview_chars: 100, max_turns: 20 }, show_tool_output: ["read"] } },
      { source: "project", value: { browse: { preview_chars: 300, max_messages: -4 }, nope: 1, search: "x" } },
    ]);
    expect(config.browse).toEqual({ preview_chars: 300, max_turns: 20, max_messages: 100 });
    expect(config.show_tool_output).toEqual(["read"]);
    expect(problems).toEqual([
      "project: browse.max_messages must be an integer from 1 to 1000; keeping 100",
      "project: unknown key nope",
      "project: search must be an object",
    ]);
  });

  it("reads .jsonc before .json per folder, project over global, and survives a broken file", () => {
    const root = scratchDir("config");
    const global = join(root, "global");
    const project = join(root, "project");
    mkdirSync(global);
    mkdirSync(project);
    writeFileSync(join(global, "opencode-engram.jsonc"), '{ "context_charting": { "recent_turns": 3, }, }');
    writeFileSync(join(global, "opencode-engram.json"), '{ "context_charting": { "recent_turns": 9 } }');
    writeFileSync(join(project, "opencode-engram.json"), '{ "context_charting": { "recent_messages": 2 } }');
    const { config, problems } = loadConfig([global, project]);
    expect(config.context_charting).toMatchObject({ recent_turns: 3, recent_messages: 2 });
    expect(problems).toEqual([]);
    writeFileSync(join(project, "opencode-engram.jsonc"), "{ not json");
    const broken = loadConfig([global, project]);
    expect(broken.config.context_charting.recent_turns).toBe(3);
    expect(broken.config.context_charting.recent_messages).toBe(defaultConfig().context_charting.recent_messages);
    expect(broken.problems[0]).toMatch(/opencode-engram\.jsonc: cannot be read as JSON/);
  });

  it("finds the global folder through XDG_CONFIG_HOME", () => {
    expect(globalConfigDir({ XDG_CONFIG_HOME: "/xdg" })).toBe("/xdg/opencode");
  });
});

describe("tool selectors", () => {
  it("supports exact names, globs, denial and deny-all", () => {
    const match = compileSelectors(["*", "!read", "mcp_*", "!mcp_secret"]);
    expect(match("bash")).toBe(true);
    expect(match("read")).toBe(false);
    expect(match("mcp_github")).toBe(true);
    expect(match("mcp_secret")).toBe(false);
    const only = compileSelectors(["*", "!", "bash"]);
    expect(only("bash")).toBe(true);
    expect(only("grep")).toBe(false);
    expect(compileSelectors(["a.b"])("axb")).toBe(false);
  });
});
