// Installs the pinned OpenCode hosts of the e2e suite (e2e/hosts.json) that package.json does not
// carry, for this machine's platform, into node_modules/.hosts/<version>. Platform packages are not
// devDependencies because `npm ci` refuses a foreign platform's package (EBADPLATFORM); the umbrella
// `@opencode/cli` is not installed because it pulls every linux-x64 variant (~815 MB). Idempotent:
// a host whose binary already prints its version is left alone.
//   node --import ./scripts/ts-loader.mjs scripts/install-hosts.ts [version...]

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { hostBinary, hostInstallDir, PINNED_HOSTS, platformPackage, type PinnedHost } from "../e2e/harness/hosts.ts";

function installedVersion(host: PinnedHost): string | undefined {
  const binary = hostBinary(host);
  if (!existsSync(binary)) return undefined;
  const run = spawnSync(binary, ["--version"], { encoding: "utf8", env: { ...process.env, OPENCODE_DISABLE_AUTOUPDATE: "1" } });
  return run.status === 0 ? run.stdout.trim().replace(/^opencode v/, "") : undefined;
}

function install(host: PinnedHost): void {
  const dir = hostInstallDir(host);
  mkdirSync(dir, { recursive: true });
  // Its own package.json keeps npm from walking up to the project's.
  writeFileSync(`${dir}/package.json`, `${JSON.stringify({ name: `opencode-host-${host.version}`, private: true })}\n`);
  const spec = `${platformPackage(host)}@${host.version}`;
  console.log(`installing OpenCode ${host.version} (${spec}) into ${dir}`);
  const run = spawnSync("npm", ["install", "--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--prefix", dir, spec], { stdio: "inherit" });
  if (run.status !== 0) throw new Error(`npm install ${spec} failed (exit ${run.status})`);
}

const wanted = process.argv.slice(2);
for (const host of PINNED_HOSTS) {
  if (wanted.length > 0 && !wanted.includes(host.version)) continue;
  if (!host.devDependency && installedVersion(host) !== host.version) install(host);
  const seen = installedVersion(host);
  if (seen !== host.version) throw new Error(`OpenCode ${host.version}: ${hostBinary(host)} prints ${seen ?? "nothing"}`);
}
