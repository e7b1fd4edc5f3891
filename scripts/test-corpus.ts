// `npm test`'s corpus step: runs the vitest project `corpus` (the real-session eval and the tests
// over ../shared/corpus/) when the dev corpus sits beside the checkout; on a clone without it, says
// where it is expected in one line and exits 0. Its exit code is vitest's otherwise.
//   node --import ./scripts/ts-loader.mjs scripts/test-corpus.ts

import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { DEV_CORPUS_DIR } from "../eval/real/sessions.ts";

if (!existsSync(DEV_CORPUS_DIR)) {
  console.log(`corpus tests skipped: no real-session corpus at ${DEV_CORPUS_DIR} (../shared/corpus/dev/ beside the checkout)`);
  process.exit(0);
}
const vitest = join(dirname(createRequire(import.meta.url).resolve("vitest/package.json")), "vitest.mjs");
const run = spawnSync(process.execPath, [vitest, "run", "--project", "corpus", ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(run.status ?? 1);
