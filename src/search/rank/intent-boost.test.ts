import { describe, expect, it } from "vitest";
import { textMessage, toolPart } from "../../history/testing/messages.ts";
import type { ToolPart } from "../../history/types.ts";
import type { ScoredDoc } from "../types.ts";
import { toolCallSignature } from "../../history/tool-text.ts";
import { parseQuery } from "../text/query.ts";
import { answersIntent, contentShare, editsFiles, intentBoost } from "./intent-boost.ts";
import { DEFAULT_TUNING } from "../tuning.ts";

const call = (tool: string, input: unknown) => toolPart(tool, input, "") as ToolPart;
const shell = (command: string) => call("bash", { command });

/** A scored chunk holding the whole tool call: its signature is the input. */
function chunkOf(part: ToolPart): { doc: ScoredDoc; text: string } {
  const message = textMessage("s1", "assistant", "", 0, [part]);
  const text = toolCallSignature(part);
  return { doc: { message, partId: part.id, type: "tool", tool: part.tool, start: 0, end: text.length, input: text.length, score: 1 }, text };
}

describe("tool calls that change files", () => {
  it("are edit and write tools, and shell commands that edit, write, patch, revert, move or delete", () => {
    const edits = [
      call("edit", { filePath: "a.py", oldString: "x", newString: "y" }),
      call("write", { filePath: "a.py", content: "x = 1" }),
      call("apply_patch", { patchText: "*** Begin Patch" }),
      shell("sed -i 's/a/b/' a.py"),
      shell("sed -i.bak -e 's/a/b/' a.py"),
      shell("perl -pi -e 's/a/b/' a.py"),
      shell("cat <<'EOF' > a.py\nx = 1\nEOF"),
      shell("echo 'x = 1' >> a.py"),
      shell("printf 'x' | tee a.py"),
      shell("git checkout requests/cookies.py"),
      shell("cd src && rm old.py"),
      shell("patch -p1 < fix.diff"),
    ];
    for (const part of edits) expect([toolCallSignature(part), editsFiles(part)]).toEqual([toolCallSignature(part), true]);
  });

  it("are not read-only views, searches or runs", () => {
    const views = [
      call("read", { filePath: "a.py" }),
      call("grep", { pattern: "def x", path: "src" }),
      shell("sed -n '10,20p' a.py"),
      shell("nl -ba a.py | sed -n '1,5p'"),
      shell("cat a.py"),
      shell("grep -rn 'rm ' src 2>&1 | head"),
      shell("pytest tests/ > /dev/null 2>&1"),
      shell("git diff"),
      shell("python -c 'print(1 > 0)'"),
    ];
    for (const part of views) expect([toolCallSignature(part), editsFiles(part)]).toEqual([toolCallSignature(part), false]);
  });
});

describe("OpenCode 2's tool names and arguments (shell, patch, path: the importer's renames in anomalyco/opencode's v1-transform)", () => {
  it("a v2 edit, write or patch changes files, a v2 shell edit too; a v2 read does not", () => {
    for (const part of [
      call("edit", { path: "a.py", oldString: "x", newString: "y" }),
      call("write", { path: "a.py", content: "x" }),
      call("patch", { patchText: "*** Begin Patch" }),
      call("shell", { command: "sed -i 's/a/b/' a.py" }),
    ]) {
      expect([part.tool, editsFiles(part)]).toEqual([part.tool, true]);
    }
    expect(editsFiles(call("read", { path: "a.py" }))).toBe(false);
  });

  it("a v2 shell call answers a command question as bash does", () => {
    const parsed = parseQuery("what command ran the migrations", DEFAULT_TUNING);
    expect(answersIntent(parsed, call("shell", { command: "npm run migrate" }))).toBe(answersIntent(parsed, call("bash", { command: "npm run migrate" })));
    expect(answersIntent(parsed, call("shell", { command: "npm run migrate" }))).toBe(true);
  });
});

describe("calls answering a question's intent", () => {
  it("for a command question run a command; a heredoc that only writes a file is a write", () => {
    const command = parseQuery("how did we run the reproduction", DEFAULT_TUNING);
    const script = parseQuery("script for the reproduction", DEFAULT_TUNING);
    const write = shell("cat <<'EOF' > repro.py\nimport subprocess\nsubprocess.run(['pylint', '--recursive=y'])\nEOF");
    const writeAndRun = shell("cat <<'EOF' > repro.py\nprint(1)\nEOF\npython repro.py");
    expect(answersIntent(command, shell("python repro.py"))).toBe(true);
    expect(answersIntent(command, writeAndRun)).toBe(true);
    expect(answersIntent(command, write)).toBe(false);
    expect(answersIntent(command, call("edit", { filePath: "repro.py", oldString: "a", newString: "b" }))).toBe(false);
    expect(answersIntent(script, write)).toBe(true);
  });
});

describe("intent boost", () => {
  it("raises a call answering the intent by the share of content words its input holds", () => {
    const parsed = parseQuery("how did we run dialyzer and credo", DEFAULT_TUNING);
    const both = chunkOf(shell("mix dialyzer && mix credo --strict"));
    const one = chunkOf(shell("mix dialyzer"));
    expect(contentShare(parsed, both.text)).toBe(1);
    expect(intentBoost(parsed, both.doc, both.text)).toBe(DEFAULT_TUNING.intent.boost);
    expect(intentBoost(parsed, one.doc, one.text)).toBeCloseTo(1 + (DEFAULT_TUNING.intent.boost - 1) / 2);
  });

  it("leaves calls of another kind, other parts, and queries without intent words alone", () => {
    const run = chunkOf(shell("sed -n '1,9p' lib/otel.ex"));
    const edit = chunkOf(call("edit", { filePath: "lib/otel.ex", oldString: "a", newString: "b" }));
    const change = parseQuery("what did we change in lib/otel.ex", DEFAULT_TUNING);
    expect(intentBoost(change, run.doc, run.text)).toBe(1);
    expect(intentBoost(change, edit.doc, edit.text)).toBe(DEFAULT_TUNING.intent.boost);
    // The input is not in this chunk (a later chunk of a long output).
    expect(intentBoost(change, { ...edit.doc, input: 0 }, edit.text)).toBe(1);
    const plain = parseQuery("otel.ex setup", DEFAULT_TUNING);
    expect(plain.intent).toBeUndefined();
    expect(intentBoost(plain, edit.doc, edit.text)).toBe(1);
  });

  it("counts a path of the query as held only whole", () => {
    const parsed = parseQuery("what did we change in lib/spotter/otel.ex", DEFAULT_TUNING);
    expect(contentShare(parsed, `edit(filePath="/home/u/app/lib/spotter/otel.ex")`)).toBe(1);
    expect(contentShare(parsed, `edit(filePath="lib/web/otel.ex")`)).toBe(0);
  });
});
