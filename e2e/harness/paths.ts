// Locations the harness needs: the repo root (never hard-coded) and the real opencode binary.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
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

function platformName(): string {
  return process.platform === "win32" ? "windows" : process.platform;
}

/**
 * npm 11 may skip opencode-ai's postinstall, so the `opencode-ai/bin` wrapper can be missing.
 * The platform package always carries the real binary; prefer it, then the baseline build.
 */
export function resolveOpencodeBinary(): string {
  const fromEnv = process.env.ENGRAM_E2E_OPENCODE_BIN;
  if (fromEnv) return fromEnv;
  const require = createRequire(join(repoRoot, "package.json"));
  const exe = process.platform === "win32" ? "opencode.exe" : "opencode";
  const base = `opencode-${platformName()}-${process.arch}`;
  const candidates: string[] = [];
  for (const pkg of [base, `${base}-baseline`]) {
    try {
      candidates.push(join(dirname(require.resolve(`${pkg}/package.json`)), "bin", exe));
    } catch {
      // optional dependency not installed for this platform
    }
  }
  try {
    const ai = dirname(require.resolve("opencode-ai/package.json"));
    candidates.push(join(ai, "bin", "opencode.exe"), join(ai, "bin", "opencode"));
  } catch {
    // fall through to the error below
  }
  candidates.push(join(repoRoot, "node_modules", ".bin", "opencode"));
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error(`opencode binary not found; tried:\n${candidates.join("\n")}`);
  return found;
}
