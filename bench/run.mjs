// `npm run bench`: the search bench in the host's Bun, then in Node. Prints figures, never fails.
// Pass BENCH_QUICK=1 for sizes ÷10.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { hostBun as bun } from "./host-bun.mjs";

const runs = [
  ["host Bun", bun, ["bench/search-bench.ts"], { BUN_BE_BUN: "1" }],
  ["Node", process.execPath, ["--expose-gc", "--import", "./scripts/ts-loader.mjs", "bench/search-bench.ts"], {}],
];
for (const [name, command, args, env] of runs) {
  if (command === bun && !existsSync(bun)) {
    console.log(`(skipping ${name}: ${bun} not installed)`);
    continue;
  }
  console.log(`\n===== ${name} =====`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) console.log(`(${name} bench exited with ${result.status ?? result.signal})`);
}
