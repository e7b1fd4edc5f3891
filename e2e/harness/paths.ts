// Locations the harness needs: the repo root (never hard-coded) and the real opencode binary.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The plugin entry from the working tree, as a `file://` URL. */
export function pluginFileUrl(): string {
  return pathToFileURL(join(repoRoot, "src", "index.ts")).href;
}

/** The plugin as an npm-style spec; the host symlinks the working tree into its package cache. */
export function pluginPackageSpec(): string {
  return `opencode-engram@file:${repoRoot}`;
}

export { resolveOpencodeBinary } from "../../src/store/testing/opencode-binary.ts";
