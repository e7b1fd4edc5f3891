// `npm run bench:host`: runs bench/host/bench.ts in the host's own Bun. Prints figures, never fails.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { hostBun } from "../host-bun.mjs";

if (!existsSync(hostBun)) console.log(`(skipping bench:host: ${hostBun} not installed)`);
else {
  const result = spawnSync(hostBun, ["bench/host/bench.ts"], { stdio: "inherit", env: { ...process.env, BUN_BE_BUN: "1" } });
  if (result.status !== 0) console.log(`(bench:host exited with ${result.status ?? result.signal})`);
}
