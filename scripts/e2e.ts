// `npm run test:e2e`: the e2e suite once per pinned OpenCode host (e2e/hosts.json), one after the
// other: installs the hosts the project pins (scripts/install-hosts.ts), builds dist/ (OpenCode 2
// loads the checkout's `server.js`, which re-exports dist/), then runs the vitest project `e2e`
// with ENGRAM_E2E_HOST set, and ends with one line naming each host, its counts and its time.
//   node --import ./scripts/ts-loader.mjs scripts/e2e.ts [--host <version>]... [vitest args]
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PINNED_HOSTS } from "../e2e/harness/hosts.ts";

const args = process.argv.slice(2);
const chosen: string[] = [];
const vitestArgs: string[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--host") chosen.push(args[++i] ?? "");
  else vitestArgs.push(args[i]!);
}
const hosts = chosen.length > 0 ? PINNED_HOSTS.filter((h) => chosen.includes(h.version)) : PINNED_HOSTS;
if (chosen.some((version) => !PINNED_HOSTS.some((h) => h.version === version))) {
  console.error(`--host must name pinned hosts (${PINNED_HOSTS.map((h) => h.version).join(", ")})`);
  process.exit(2);
}

const node = (script: string, extra: string[]) => spawnSync(process.execPath, ["--import", "./scripts/ts-loader.mjs", script, ...extra], { stdio: "inherit" });
const step = (what: string, status: number | null) => {
  if (status !== 0) {
    console.error(`e2e: ${what} failed (exit ${status})`);
    process.exit(status ?? 1);
  }
};
step(
  "installing the hosts",
  node(
    "scripts/install-hosts.ts",
    hosts.map((h) => h.version),
  ).status,
);
step("npm run build", spawnSync("npm", ["run", "build", "--silent"], { stdio: "inherit" }).status);

interface VitestJson {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}

/** OpenCode 2's `serve --service` port. */
const SERVICE_PORT = 49374;

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

const vitest = join(dirname(createRequire(import.meta.url).resolve("vitest/package.json")), "vitest.mjs");
const scratch = mkdtempSync(join(tmpdir(), "engram-e2e-run-"));
const summary: string[] = [];
let failed = false;
for (const host of hosts) {
  const report = join(scratch, `${host.version}.json`);
  const started = Date.now();
  console.log(`\n=== e2e on OpenCode ${host.version} ===`);
  const run = spawnSync(
    process.execPath,
    [vitest, "run", "--project", "e2e", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...vitestArgs],
    {
      stdio: "inherit",
      env: { ...process.env, ENGRAM_E2E_HOST: host.version },
    },
  );
  const seconds = Math.round((Date.now() - started) / 1000);
  let counts: string;
  try {
    const r = JSON.parse(readFileSync(report, "utf8")) as VitestJson;
    counts = [
      `${r.numPassedTests} passed`,
      r.numFailedTests && `${r.numFailedTests} failed`,
      r.numPendingTests + r.numTodoTests && `${r.numPendingTests + r.numTodoTests} skipped`,
    ]
      .filter(Boolean)
      .join(" ");
  } catch {
    counts = "no report";
  }
  if (run.status !== 0) failed = true;
  // OpenCode 2 commands without --standalone/--server start a `serve --service` daemon that
  // outlives them; the harness runs none, and this makes sure of it.
  const daemon = host.generation === 2 && (await listening(SERVICE_PORT));
  if (daemon) {
    failed = true;
    console.error(`e2e: something listens on 127.0.0.1:${SERVICE_PORT} after the ${host.version} run (OpenCode 2's service daemon?)`);
  }
  summary.push(`${host.version} ${counts}${run.status !== 0 ? ` (exit ${run.status})` : ""}${daemon ? " (service daemon left running)" : ""} in ${seconds}s`);
}
rmSync(scratch, { recursive: true, force: true });
console.log(`\ne2e hosts: ${summary.join(", ")}`);
process.exit(failed ? 1 : 0);
