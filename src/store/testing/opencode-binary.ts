// The real opencode binary of the clone's dev dependencies (opencode-ai), whose Bun hosts the
// plugin: the unit tests run Bun-only code in it (run-in-bun.ts), the end-to-end suite starts it.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

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
