#!/usr/bin/env node
// Starts the command line (TypeScript, src/cli/main.ts) in Bun, which runs TypeScript as is and
// reads OpenCode's SQLite store with its own driver. Bun comes from, in order: $OPENCODE_ENGRAM_BUN,
// `bun` on PATH, `opencode` on PATH (OpenCode's binary is Bun: BUN_BE_BUN=1 makes it act as Bun),
// then the opencode-ai platform package installed beside this one.
import { spawnSync } from "node:child_process";
import { accessSync, constants, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const entry = fileURLToPath(new URL("../src/cli/main.ts", import.meta.url));
const exe = process.platform === "win32" ? ".exe" : "";

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function onPath(name) {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const found = dir && executable(join(dir, name + exe));
    if (found) return found;
  }
  return undefined;
}

function platformPackageBinary() {
  const require = createRequire(import.meta.url);
  const os = process.platform === "win32" ? "windows" : process.platform;
  for (const pkg of [`opencode-${os}-${process.arch}`, `opencode-${os}-${process.arch}-baseline`]) {
    try {
      const found = executable(join(dirname(require.resolve(`${pkg}/package.json`)), "bin", `opencode${exe}`));
      if (found) return found;
    } catch {
      // not installed
    }
  }
  return undefined;
}

/** [binary, is it OpenCode's, how it was found] */
function runtimes() {
  const out = [];
  const fromEnv = process.env.OPENCODE_ENGRAM_BUN;
  if (fromEnv) out.push([fromEnv, /opencode[^/\\]*$/.test(fromEnv), `$OPENCODE_ENGRAM_BUN=${fromEnv}`]);
  const bun = onPath("bun");
  if (bun) out.push([bun, false, `bun on PATH: ${bun}`]);
  const opencode = onPath("opencode");
  if (opencode) out.push([opencode, true, `the Bun inside opencode on PATH: ${opencode}`]);
  const packaged = platformPackageBinary();
  if (packaged) out.push([packaged, true, `the Bun inside the installed opencode-ai package: ${packaged}`]);
  return out;
}

if (typeof globalThis.Bun !== "undefined") {
  process.env.OPENCODE_ENGRAM_RUNTIME ??= "run by Bun directly";
  await import(entry);
} else {
  let ran = false;
  for (const [binary, isOpencode, how] of runtimes()) {
    const env = { ...process.env, OPENCODE_ENGRAM_RUNTIME: how };
    if (isOpencode) env.BUN_BE_BUN = "1";
    const result = spawnSync(binary, [entry, ...process.argv.slice(2)], { stdio: "inherit", env });
    if (result.error) continue; // not runnable here: try the next one
    ran = true;
    if (result.signal) process.kill(process.pid, result.signal);
    process.exitCode = result.status ?? 1;
    break;
  }
  if (!ran) {
    process.stderr.write(
      "opencode-engram needs Bun to read OpenCode's store (SQLite, read with Bun's driver), and found none.\n" +
        "Install Bun (https://bun.sh), put OpenCode's `opencode` binary on PATH, or set OPENCODE_ENGRAM_BUN to either.\n",
    );
    process.exitCode = 3;
  }
}
