// Small throwaway source trees for the import tests: files written under a temporary folder,
// removed with it.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TempProjects {
  /** A new tree of these files (path → text), its root returned. */
  project(files: Record<string, string>): string;
  /** Removes every tree made. */
  remove(): void;
}

export function tempProjects(prefix: string): TempProjects {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    project(files) {
      const root = mkdtempSync(join(dir, "p-"));
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(join(root, name, ".."), { recursive: true });
        writeFileSync(join(root, name), text);
      }
      return root;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
