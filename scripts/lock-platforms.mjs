// Keeps package-lock.json installable by `npm ci` everywhere. The registry this project is built
// against does not serve every platform build of some optional dependencies (opencode-ai's
// binaries for other systems, vite's Windows helper), so `npm install` here drops them from the
// lock, and `npm ci` then refuses the lock as out of sync. This re-adds them as optional,
// platform-bound entries: npm skips them on other platforms and fetches them where they apply.
// Run after any `npm install` that rewrites the lock: node scripts/lock-platforms.mjs
import { readFileSync, writeFileSync } from "node:fs";

const lockPath = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, "utf8"));

/** name → [version, os, cpu?] of optional dependencies the registry here may not serve. */
export const PLATFORM_PACKAGES = {
  "opencode-darwin-arm64": ["1.18.33", "darwin", "arm64"],
  "opencode-darwin-x64": ["1.18.33", "darwin", "x64"],
  "opencode-darwin-x64-baseline": ["1.18.33", "darwin", "x64"],
  "opencode-linux-arm64": ["1.18.33", "linux", "arm64"],
  "opencode-linux-arm64-musl": ["1.18.33", "linux", "arm64"],
  "opencode-linux-x64": ["1.18.33", "linux", "x64"],
  "opencode-linux-x64-baseline": ["1.18.33", "linux", "x64"],
  "opencode-linux-x64-baseline-musl": ["1.18.33", "linux", "x64"],
  "opencode-linux-x64-musl": ["1.18.33", "linux", "x64"],
  "opencode-windows-arm64": ["1.18.33", "win32", "arm64"],
  "opencode-windows-x64": ["1.18.33", "win32", "x64"],
  "opencode-windows-x64-baseline": ["1.18.33", "win32", "x64"],
  "napi-windows-process-start-time": ["0.1.0", "win32"],
};

let added = 0;
for (const [name, [version, os, cpu]] of Object.entries(PLATFORM_PACKAGES)) {
  const key = `node_modules/${name}`;
  if (lock.packages[key]) continue;
  lock.packages[key] = { version, ...(cpu ? { cpu: [cpu] } : {}), dev: true, optional: true, os: [os] };
  added++;
}
const sorted = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : 1)));
lock.packages = sorted;
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lock-platforms: ${added} entr${added === 1 ? "y" : "ies"} added`);
