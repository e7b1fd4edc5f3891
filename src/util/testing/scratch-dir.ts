// Scratch folders for tests and the Bun scenario scripts, removed when done, so that a test run
// leaves nothing in the system's temporary folder: vitest's unit project removes a file's after
// it (scratch-dir.setup.ts), a scenario script when it answers (store/testing/run-in-bun.ts).
// Not on process exit: Bun skipped "exit" listeners in a script that had run worker threads.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const made: string[] = [];

/** A new empty folder under the system's temporary folder, named `engram-<role>-…`. */
export function scratchDir(role: string): string {
  const dir = mkdtempSync(join(tmpdir(), `engram-${role}-`));
  made.push(dir);
  return dir;
}

/** Removes every folder `scratchDir` made so far in this process. */
export function removeScratchDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}
