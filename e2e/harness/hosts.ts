// The pinned OpenCode hosts of the e2e suite (e2e/hosts.json) and where each one's binary lives.
// scripts/install-hosts.ts installs the ones package.json does not carry into node_modules/.hosts/,
// per platform, so `npm ci` stays platform-neutral; ENGRAM_E2E_HOST picks the host a run drives.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { resolveOpencodeBinary } from "../../src/store/testing/opencode-binary.ts";
import { repoRoot } from "./paths.ts";

export interface PinnedHost {
  version: string;
  generation: 1 | 2;
  /** npm package holding `bin/opencode`, `{platform}`/`{arch}` as npm names them. */
  package: string;
  /** Set when package.json's devDependencies carry this host (its binary then resolves from there). */
  devDependency?: string;
}

export const PINNED_HOSTS: PinnedHost[] = (JSON.parse(readFileSync(join(repoRoot, "e2e", "hosts.json"), "utf8")) as { hosts: PinnedHost[] }).hosts;

/** The npm package name of a pinned host for this machine. */
export function platformPackage(host: PinnedHost): string {
  const platform = process.platform === "win32" ? "windows" : process.platform;
  return host.package.replace("{platform}", platform).replace("{arch}", process.arch);
}

/** The folder scripts/install-hosts.ts installs a host into. */
export function hostInstallDir(host: PinnedHost): string {
  return join(repoRoot, "node_modules", ".hosts", host.version);
}

export function hostBinary(host: PinnedHost): string {
  if (host.devDependency) return resolveOpencodeBinary();
  const exe = process.platform === "win32" ? "opencode.exe" : "opencode";
  return join(hostInstallDir(host), "node_modules", platformPackage(host), "bin", exe);
}

export interface SelectedHost extends PinnedHost {
  binary: string;
}

function pinnedSelection(): PinnedHost {
  const wanted = process.env.ENGRAM_E2E_HOST;
  const host = wanted ? PINNED_HOSTS.find((h) => h.version === wanted) : PINNED_HOSTS[0];
  if (!host) throw new Error(`ENGRAM_E2E_HOST=${wanted}: not a pinned host (${PINNED_HOSTS.map((h) => h.version).join(", ")} in e2e/hosts.json)`);
  return host;
}

/** Whether this run drives OpenCode 2: for `describe.skipIf` / `test.skipIf` at collection time. */
export const onOpenCode2 = pinnedSelection().generation === 2;

/** The host this run drives: ENGRAM_E2E_HOST (a pinned version), else the first pinned host. */
export function selectedHost(): SelectedHost {
  const host = pinnedSelection();
  const binary = process.env.ENGRAM_E2E_OPENCODE_BIN || hostBinary(host);
  if (!existsSync(binary))
    throw new Error(`OpenCode ${host.version} is not installed at ${binary}; run \`node --import ./scripts/ts-loader.mjs scripts/install-hosts.ts\``);
  return { ...host, binary };
}
