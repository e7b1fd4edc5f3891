// OpenCode 2 only: `opencode-engram doctor` on a store the real host wrote, with this checkout listed
// as the host loads it (a directory under "plugins"), and with forms OpenCode 2 drops or none at all.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { hostEnv, startHost, type Host } from "./harness/host.ts";
import { selectedHost } from "./harness/hosts.ts";
import { repoRoot } from "./harness/paths.ts";

type Json = Record<string, any>;

const isV2 = selectedHost().generation === 2;
let host: Host;

/** `opencode-engram doctor --json` as a user runs it, with the host's HOME and XDG folders and its Bun. */
function doctor(project: string): { code: number | null; checks: Json } {
  const result = spawnSync(process.execPath, [join(repoRoot, "bin", "opencode-engram.mjs"), "doctor", "--json", "--project", project], {
    cwd: project,
    encoding: "utf8",
    env: hostEnv(host.root, { OPENCODE_ENGRAM_BUN: host.binary }),
  });
  const checks = (JSON.parse(result.stdout) as { checks: Json[] }).checks;
  return { code: result.status, checks: Object.fromEntries(checks.map((check) => [check.name, check])) };
}

/** A second project folder holding only an opencode.json. */
function projectWith(name: string, config: unknown): string {
  const dir = join(host.root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "opencode.json"), JSON.stringify(config));
  return dir;
}

describe.skipIf(!isV2)("doctor on OpenCode 2", () => {
  beforeAll(async () => {
    host = await startHost();
    const id = (await host.createSession()).id;
    host.mock.push({ text: "Stored." });
    await host.prompt(id, "Store one turn.");
  });
  afterAll(async () => {
    await host?.stop();
  });

  test('the checkout listed under "plugins" as a directory: listed and loadable, no warning', () => {
    const { code, checks } = doctor(host.directory);
    expect(code).toBe(0);
    expect(checks.store.detail[0]).toMatch(/\(OpenCode 2 store, schema known, opened read-only\)$/);
    expect(checks["written by"].detail[0]).toMatch(new RegExp(`^OpenCode ${host.version.replaceAll(".", "\\.")}\\b`));
    expect(checks["1.x tables"]).toBeUndefined();
    expect(checks["opencode.json"]).toEqual({
      name: "opencode.json",
      status: "ok",
      detail: [
        `${join(host.directory, "opencode.json")}: "${repoRoot}" — absolute path, directory: the host loads its server.js (else index.js) (under "plugins"); OpenCode 2 loads it`,
      ],
    });
  });

  test("a file path or file URL is a warning OpenCode 2 would drop; none listed advises a folder or the package", () => {
    const files = doctor(projectWith("file-entries", { plugins: [`file://${repoRoot}/src/index.ts`, join(repoRoot, "server.js")] }));
    expect(files.checks["opencode.json"].status).toBe("warn");
    const lines = files.checks["opencode.json"].detail as string[];
    expect(lines.filter((line) => line.includes("OpenCode 2 drops every configured file path"))).toHaveLength(2);
    expect(lines.at(-1)).toMatch(/"plugins" list: add "opencode-engram@<version>" \(npm\) or a checkout's folder/);
    expect(lines.at(-1)).not.toMatch(/file:\/\/|index\.ts/);

    const none = doctor(projectWith("no-entry", { plugins: ["some-other-plugin"] }));
    const noneCheck = none.checks["opencode.json"];
    expect(noneCheck.status).toBe("warn");
    expect((noneCheck.detail as string[]).at(-1)).toMatch(/^the plugin is in no opencode\.json "plugins" list/);
  });
});
