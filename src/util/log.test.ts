import { describe, expect, it } from "vitest";
import { stderrLog } from "./log.ts";

describe("stderrLog (OpenCode 2, which gives plugins no log API)", () => {
  it("writes warnings and errors as one marked line each, and drops the rest", () => {
    const lines: string[] = [];
    const log = stderrLog((line) => lines.push(line));
    log("debug", "d");
    log("info", "i");
    log("warn", "store not found");
    log("error", "hook failed");
    expect(lines).toEqual(["[opencode-engram] warn: store not found\n", "[opencode-engram] error: hook failed\n"]);
  });
});
