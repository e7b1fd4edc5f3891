// export's file output: a missing folder is a usage error, and a file is written whole or not at all.

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CommandError } from "./command.ts";
import { outputProblem, writeWhole } from "./export-command.ts";
import { scratchDir } from "../util/testing/scratch-dir.ts";

describe("export -o", () => {
  const dir = scratchDir("export");

  it("names a folder that does not exist, a folder given as the file, and accepts a new file in a folder", () => {
    expect(outputProblem(join(dir, "nope", "out.md"))).toBe(
      `-o ${join(dir, "nope", "out.md")}: the folder ${join(dir, "nope")} does not exist (export creates no folders)`,
    );
    mkdirSync(join(dir, "sub"));
    expect(outputProblem(join(dir, "sub"))).toMatch(/is a folder; give a file name$/);
    expect(outputProblem(join(dir, "out.md"))).toBeUndefined();
  });

  it("replaces a file whole and leaves no temporary file, also when the write fails", () => {
    const file = join(dir, "out.md");
    writeFileSync(file, "old");
    writeWhole(file, "new text\n");
    expect(readFileSync(file, "utf8")).toBe("new text\n");
    expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    const blocked = join(dir, "sub");
    expect(() => writeWhole(blocked, "x")).toThrow(CommandError);
    expect(existsSync(join(dir, ".sub.tmp"))).toBe(false);
    expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });
});
