// Files a stretch of history changed, for both hosts' tool names: OpenCode 1.x's `write`/`edit`
// with `filePath` and `apply_patch`, and OpenCode 2's `write`/`edit` with `path` and `patch` (the
// importer's renames in anomalyco/opencode's v1-transform).
import { describe, expect, it } from "vitest";
import { modifiedFiles } from "./modified.ts";
import { assistant, toolCall } from "./testing/messages.ts";

const patchText = "*** Begin Patch\n*** Update File: src/patched.ts\n@@\n-a\n+b\n*** End Patch";

describe("modifiedFiles", () => {
  it("names the files of completed write, edit and patch calls under either host's names", () => {
    const v1 = assistant([toolCall("write", { filePath: "/p/src/one.ts", content: "x" }), toolCall("apply_patch", { patchText })]);
    const v2 = assistant([
      toolCall("edit", { path: "/p/src/two.ts", oldString: "a", newString: "b" }),
      toolCall("patch", { patchText: patchText.replace("patched", "patched2") }),
    ]);
    expect(modifiedFiles([v1], "/p")).toEqual(["src/one.ts", "src/patched.ts"]);
    expect(modifiedFiles([v2], "/p")).toEqual(["src/two.ts", "src/patched2.ts"]);
  });

  it("leaves out failed calls and calls that only read or run", () => {
    const message = assistant([toolCall("write", { path: "/p/a.ts" }, "error"), toolCall("read", { path: "/p/b.ts" }), toolCall("shell", { command: "ls" })]);
    expect(modifiedFiles([message], "/p")).toEqual([]);
  });
});
