// The dual default export `{id, server, setup}` on the real OpenCode 1.18.33, loaded both ways a
// user loads it: as a file:// URL and as an npm package the host installs. The host must call
// `server` once and register each history tool once, and its log must show no plugin error. 1.18.33
// also calls `setup` from its embedded 2.x core, with a registration-only context (seen here both
// ways, 2026-12-01); a wrapper module that passes both entries through to ours unchanged records
// each call, so the test fails if that pass ever gets a tool domain or comes twice.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, test } from "vitest";
import { startHost, type Host } from "./harness/host.ts";
import { onOpenCode2 } from "./harness/hosts.ts";
import { repoRoot } from "./harness/paths.ts";
import { HISTORY_TOOL_NAMES } from "../src/tools/engram.ts";

const REGISTRATION_ONLY = ["agent", "aisdk", "catalog", "command", "integration", "options", "plugin", "reference", "skill"];

const scratch = mkdtempSync(join(tmpdir(), "engram-dual-"));
const hosts: Host[] = [];

afterAll(async () => {
  for (const host of hosts) await host.stop();
  rmSync(scratch, { recursive: true, force: true });
});

/** A module whose default export is ours with each entry recording its call to `trace` first. */
function wrapperSource(engramSpecifier: string): string {
  return `import { appendFileSync } from "node:fs";
import engram from ${JSON.stringify(engramSpecifier)};
const trace = (entry, argument) => appendFileSync(process.env.ENGRAM_ENTRY_TRACE, JSON.stringify({ entry, keys: Object.keys(argument ?? {}).sort() }) + "\\n");
export default {
  id: engram.id,
  server: (input) => { trace("server", input); return engram.server(input); },
  setup: (context) => { trace("setup", context); return engram.setup(context); },
};
`;
}

interface EntryCall {
  entry: "server" | "setup";
  keys: string[];
}

async function loadedHost(plugin: string, trace: string): Promise<{ host: Host; calls: () => EntryCall[] }> {
  writeFileSync(trace, "");
  const host = await startHost({ plugin: [plugin], env: { ENGRAM_ENTRY_TRACE: trace } });
  hosts.push(host);
  const session = await host.createSession();
  await host.prompt(session.id, "Remember the word pineapple.");
  const result = await host.callTool(session.id, "history_browse_turns", {});
  expect(result.status).toBe("completed");
  const calls = () =>
    readFileSync(trace, "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as EntryCall);
  return { host, calls };
}

function expectLoadedOnce(host: Host, calls: EntryCall[]): void {
  expect(host.pluginLoadErrors()).toEqual([]);
  expect(host.logs()).not.toMatch(/tool\.transform failed|setup failed|invalid tui export/i);
  expect(calls.filter((call) => call.entry === "server")).toHaveLength(1);
  // The model's request lists each history tool exactly once.
  const names = (host.mock.chatRequests().at(-1)!.body.tools ?? []).map((tool) => tool.function.name).filter((name) => name.startsWith("history_"));
  expect(names.sort()).toEqual(HISTORY_TOOL_NAMES);
  // The embedded 2.x pass: once at most, with exactly the registration-only context of
  // @opencode-ai/plugin 1.18.33's dist/v2/promise/context.d.ts (no tool, session or event domain).
  const setups = calls.filter((call) => call.entry === "setup");
  expect(setups.length).toBeLessThanOrEqual(1);
  for (const call of setups) expect(call.keys).toEqual(REGISTRATION_ONLY);
}

// 1.x only: OpenCode 2 calls `setup` alone (every other file loads the plugin there).
describe.skipIf(onOpenCode2)("the dual export on OpenCode 1.x", () => {
  test("as a file:// module: server once with the 1.x input, tools once, no plugin error", async () => {
    const wrapper = join(scratch, "file-wrapper.ts");
    writeFileSync(wrapper, wrapperSource(pathToFileURL(join(repoRoot, "src", "index.ts")).href));
    const { host, calls } = await loadedHost(pathToFileURL(wrapper).href, join(scratch, "file.trace"));
    expectLoadedOnce(host, calls());
    expect(calls().find((call) => call.entry === "server")!.keys).toEqual(expect.arrayContaining(["client", "directory", "worktree"]));
  });

  test("as an installed npm package: server once, tools once, no plugin error", async () => {
    const packs = join(scratch, "packs");
    mkdirSync(packs);
    const engramTarball = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", packs], { cwd: repoRoot, encoding: "utf8" }))[0]
      .filename as string;
    // A package depending on the packed plugin, so the host installs both from tarballs.
    const probe = join(scratch, "probe");
    mkdirSync(probe);
    writeFileSync(join(probe, "index.ts"), wrapperSource("opencode-engram"));
    writeFileSync(
      join(probe, "package.json"),
      JSON.stringify({
        name: "engram-entry-probe",
        version: "0.0.0",
        type: "module",
        main: "./index.ts",
        exports: { ".": "./index.ts", "./server": "./index.ts" },
        dependencies: { "opencode-engram": `file:${join(packs, engramTarball)}` },
      }),
    );
    const probeTarball = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", packs], { cwd: probe, encoding: "utf8" }))[0]
      .filename as string;
    const { host, calls } = await loadedHost(`engram-entry-probe@file:${join(packs, probeTarball)}`, join(scratch, "package.trace"));
    expectLoadedOnce(host, calls());
  });
});
