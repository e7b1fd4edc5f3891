// The plugin as a user of a release gets it: `npm pack` of the working tree, installed by the real
// host from `opencode-engram@file:<tarball>` (OpenCode 2: `file:<tarball>`) (a copy in the host's package cache, its dependencies
// from the registry, nothing from this checkout), then a history tool called through the model.
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, posix } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startHost, type Host } from "./harness/host.ts";
import { onOpenCode2 } from "./harness/hosts.ts";
import { repoRoot } from "./harness/paths.ts";

interface PackResult {
  filename: string;
  version: string;
  files: { path: string }[];
}

const packDir = mkdtempSync(join(tmpdir(), "engram-pack-"));
let packed: PackResult;
let host: Host;

beforeAll(async () => {
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", packDir], { cwd: repoRoot, encoding: "utf8" });
  packed = (JSON.parse(out) as PackResult[])[0]!;
  // 1.x takes an npm spec with the name; OpenCode 2 a bare `file:` spec (it drops file paths).
  const tarball = join(packDir, packed.filename);
  host = await startHost({ plugin: [onOpenCode2 ? `file:${tarball}` : `opencode-engram@file:${tarball}`] });
}, 600_000);

afterAll(async () => {
  await host?.stop();
  rmSync(packDir, { recursive: true, force: true });
});

/** Relative imports of a shipped TypeScript or JavaScript file, resolved against its folder. */
function relativeImports(path: string, source: string): string[] {
  const specifiers = [...source.matchAll(/(?:import|export)\s[^"';]*?from\s+["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/g)];
  return specifiers.map((m) => posix.normalize(posix.join(posix.dirname(path), (m[1] ?? m[2])!)));
}

describe("the npm package", () => {
  test("ships the plugin, its docs and changelog, and nothing of the tests", () => {
    const paths = packed.files.map((f) => f.path);
    const version = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string }).version;
    expect(packed.version).toBe(version);
    for (const needed of [
      "package.json",
      "dist/index.js",
      "dist/opencode2/setup.js",
      // The projection's build thread: started by its path, so no import names it.
      "dist/projection/build-worker.js",
      "server.js",
      "src/index.ts",
      "src/opencode1/plugin.ts",
      "README.md",
      "CHANGELOG.md",
      "opencode-engram.jsonc",
      "docs/tools.md",
    ]) {
      expect(paths, needed).toContain(needed);
    }
    const testish = paths.filter((p) => /\.test\.ts$|(^|\/)testing(\/|\.ts$)|(^|\/)(e2e|bench|demo|scripts)\//.test(p));
    expect(testish).toEqual([]);
    // Every module a shipped file imports is shipped too.
    const missing: string[] = [];
    for (const path of paths.filter((p) => p.endsWith(".ts") || p.endsWith(".js"))) {
      for (const target of relativeImports(path, readFileSync(join(repoRoot, path), "utf8"))) {
        if (!paths.includes(target)) missing.push(`${path} → ${target}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test("the host installs it from the tarball and its tools work", async () => {
    expect(host.pluginLoadErrors()).toEqual([]);
    const session = await host.createSession();
    await host.prompt(session.id, "Remember the word pineapple.");
    const result = await host.callTool(session.id, "history_browse_turns", {});
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("completed");
    expect((result.output as { turns: { user: { preview: string } }[] }).turns[0]!.user.preview).toBe("Remember the word pineapple.");

    // The host runs the installed copy (a real directory holding the packed files), not this checkout.
    const installed = findInstalled(join(host.root, "cache"));
    expect(installed, "opencode-engram installed under the host's package cache").toBeDefined();
    expect(lstatSync(installed!).isSymbolicLink()).toBe(false);
    expect(existsSync(join(installed!, "src", "tools", "run.test.ts"))).toBe(false);
    expect((JSON.parse(readFileSync(join(installed!, "package.json"), "utf8")) as { version: string }).version).toBe(packed.version);

    // The installed copy's build thread (dist/projection/build-worker.js) builds the store's
    // projection: the session just prompted is in the file, and no fallback to the host's thread was logged.
    expect(await projectedSessions()).toBeGreaterThan(0);
    expect(host.logs()).not.toContain("building on the host's thread instead");
  });
});

/** Sessions the projection file holds whole, once there are any (the passes start with the first host event). */
async function projectedSessions(): Promise<number> {
  const folder = join(host.root, "cache", "opencode-engram");
  for (let attempt = 0; attempt < 240; attempt++) {
    const name = existsSync(folder) ? readdirSync(folder).find((entry) => /^projection-[0-9a-f]+\.sqlite$/.test(entry)) : undefined;
    if (name) {
      try {
        const count = Number(execFileSync("sqlite3", [join(folder, name), "SELECT count(*) FROM session"], { encoding: "utf8" }).trim());
        if (count > 0) return count;
      } catch {
        // being written, or not a database yet
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return 0;
}

/** The `node_modules/opencode-engram` folder the host installed (the package spec may nest folders). */
function findInstalled(dir: string, depth = 0): string | undefined {
  if (depth > 16 || !existsSync(dir)) return undefined;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.name === "opencode-engram" && basename(dirname(path)) === "node_modules") return path;
    if (entry.isDirectory() && entry.name !== ".bin") {
      const found = findInstalled(path, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}
