// SQLite reads run only in Bun (bun:sqlite), and unit tests run in Node: a test hands a module to
// the host's own Bun (`BUN_BE_BUN=1 <opencode binary>`) and reads back the JSON it answers.
// The module calls `answer` with what it computed from its input.

import { spawnSync } from "node:child_process";
import { removeScratchDirs } from "../../util/testing/scratch-dir.ts";
import { resolveOpencodeBinary } from "./opencode-binary.ts";

/** Runs `module` (a path) in the host's Bun with `input`; resolves to the JSON it answered. */
export function runInBun<T>(module: string, input: unknown): T {
  const result = spawnSync(resolveOpencodeBinary(), [module, JSON.stringify(input)], {
    env: { ...process.env, BUN_BE_BUN: "1" },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const last = result.stdout.trim().split("\n").at(-1) ?? "";
  if (result.status !== 0 || !last.startsWith("{")) {
    throw new Error(`${module} exited ${result.status}: ${result.stderr.slice(-4000)}${result.stdout.slice(-2000)}`);
  }
  return JSON.parse(last) as T;
}

/**
 * In the module run by runInBun: computes the answer from the input and prints it as the last
 * line; its scratch folders are removed, answered or not.
 */
export async function answer(compute: (input: any) => Promise<unknown>): Promise<void> {
  let result: unknown;
  try {
    result = await compute(JSON.parse(process.argv[2] ?? "null"));
  } finally {
    removeScratchDirs();
  }
  process.stdout.write(`\n${JSON.stringify(result)}\n`);
  process.exit(0);
}
