import { describe, expect, it } from "vitest";
import { messagePreview } from "./preview.ts";
import { clip } from "./text.ts";
import { assistant, nextId, toolCall, user } from "./testing/messages.ts";
import { modifiedFiles, pathsInPatch } from "./modified.ts";
import { relativePath } from "./attachments.ts";
import { summarizeTools } from "./tool-summary.ts";

describe("previews", () => {
  it("flattens newlines and clips at a sentence, then a word boundary", () => {
    expect(clip("First line\nsecond   line", 100)).toBe("First line second line");
    expect(clip("A fairly long opening sentence is here. Then more words follow on.", 50)).toBe("A fairly long opening sentence is here.…");
    expect(clip("Short one. Then a much longer sentence that runs past the room.", 40)).toBe("Short one. Then a much longer sentence…");
    expect(clip("words that keep going without any full stop at all", 30)).toBe("words that keep going without…");
    expect(clip("无线耳机的电池续航时间需要重新测试一下", 10)).toBe("无线耳机的电池续航…");
  });

  it("never splits a surrogate pair", () => {
    const text = "😀".repeat(20);
    const out = clip(text, 7);
    expect(out.endsWith("…")).toBe(true);
    expect(out.slice(0, -1)).toBe("😀".repeat(3));
  });

  it("skips synthetic text and labels messages without words", () => {
    expect(
      messagePreview(
        user([
          { kind: "text", id: nextId("prt"), text: "Called the Read tool", synthetic: true },
          { kind: "file", id: nextId("prt"), mime: "text/plain" },
        ]),
        50,
      ),
    ).toBe("[attachments only]");
    expect(messagePreview(user([{ kind: "compaction", id: nextId("prt"), auto: false }]), 50)).toBe("[compaction request]");
    expect(messagePreview(user([{ kind: "subtask", id: nextId("prt"), prompt: "p", description: "probe sub", agent: "general" }]), 50)).toBe(
      "[subtask request] probe sub",
    );
    expect(messagePreview(assistant([toolCall("bash", {})]), 50)).toBe("[tool calls only]");
    expect(messagePreview(assistant(["text"], { summary: true }), 50)).toBe("[compacted summary]");
    expect(messagePreview(assistant([], { error: { name: "APIError", message: "bad request" } }), 50)).toBe("[error: APIError: bad request]");
    expect(messagePreview(assistant([], { error: { name: "MessageAbortedError" } }), 50)).toBe("[aborted]");
  });
});

describe("tool summaries", () => {
  it("counts calls and errors per tool and judges the outcome", () => {
    expect(summarizeTools([toolCall("grep", {}), toolCall("grep", {}), toolCall("edit", {}, "error")])).toEqual({
      calls: ["2× grep", "1× edit: 1× error"],
      outcome: "error",
    });
    expect(summarizeTools([toolCall("edit", {}, "error"), toolCall("edit", {})])?.outcome).toBe("recovered");
    expect(summarizeTools([toolCall("bash", {}, "running")])?.outcome).toBe("running");
    expect(summarizeTools([])).toBeUndefined();
  });
});

describe("modified files", () => {
  it("collects completed writes, patch tools and host patch parts, relative to the project", () => {
    const patch = "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+y\n*** Add File: src/b.ts\n+new\n*** End Patch";
    const messages = [
      assistant([toolCall("write", { filePath: "/project/src/w.ts" })]),
      assistant([toolCall("edit", { filePath: "/project/src/failed.ts" }, "error")]),
      assistant([toolCall("apply_patch", { patchText: patch })]),
      assistant([{ kind: "patch", id: nextId("prt"), files: ["/project/src/w.ts", "/elsewhere/x.ts"] }]),
    ];
    expect(modifiedFiles(messages, "/project")).toEqual(["src/w.ts", "src/a.ts", "src/b.ts", "/elsewhere/x.ts"]);
    expect(pathsInPatch("--- a/x.ts\n+++ b/y.ts\n@@")).toEqual(["y.ts"]);
  });
});

describe("attachment paths", () => {
  it("decodes file URLs, and keeps one with malformed escapes as stored instead of failing", () => {
    expect(relativePath("file:///project/my%20notes.txt", "/project")).toBe("my notes.txt");
    expect(relativePath("file:///project/bad%E0%A4%A.txt", "/project")).toBe("bad%E0%A4%A.txt");
    expect(relativePath("file:///elsewhere/100%.txt", "/project")).toBe("/elsewhere/100%.txt");
  });
});
