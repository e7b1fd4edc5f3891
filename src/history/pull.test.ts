import { describe, expect, it } from "vitest";
import { byteLength, toJson } from "./compact.ts";
import { MAX_ANSWER_BYTES } from "./limits.ts";
import { pullMessage } from "./pull-message.ts";
import { pullPart } from "./pull-part.ts";
import { assistant, nextId, toolCall, user } from "./testing/messages.ts";
import { toolVisibility } from "./tool-visibility.ts";
import { buildView } from "./view.ts";

const visibility = toolVisibility([], []);
const options = { sectionChars: 100, visibility, directory: "/project" };

describe("history_pull_message", () => {
  it("renders every section type and cuts long content with a part id", () => {
    const question = user("q");
    const long = "x".repeat(500);
    const bash = toolCall("bash", { command: "ls" }, "completed", long);
    const read = toolCall("read", { filePath: "/project/a.ts" }, "completed", "file body");
    const message = assistant([
      { kind: "reasoning", id: nextId("prt"), text: "thinking" },
      "short text",
      bash,
      read,
      { kind: "patch", id: nextId("prt"), files: ["/project/src/a.ts"] },
    ]);
    const view = buildView("ses_test", [question, message], false);
    const result = pullMessage(view, message.id, options);
    expect(result.turn_number).toBe(1);
    expect(result.sections[0]).toEqual({ type: "reasoning", content: "thinking" });
    expect(result.sections[1]).toEqual({ type: "text", content: "short text" });
    const tool = result.sections[2]!;
    expect(tool.part_id).toBe(bash.id);
    expect(tool.input).toEqual({ command: "ls" });
    expect(String(tool.content)).toMatch(/^x{100}… \[400 chars more\]$/);
    // read output is hidden by the built-in selectors: input only.
    expect(result.sections[3]).toEqual({ type: "tool", tool: "read", status: "completed", input: { filePath: "/project/a.ts" } });
    expect(result.sections[4]).toEqual({ type: "patch", files: ["src/a.ts"] });
  });

  it("keeps a message with many huge parts under the answer budget", () => {
    const parts = Array.from({ length: 300 }, () => toolCall("bash", { command: "cat big" }, "completed", "y".repeat(50_000)));
    const message = assistant(parts);
    const view = buildView("ses_test", [user("q"), message], false);
    const result = pullMessage(view, message.id, { ...options, sectionChars: 2000 });
    expect(byteLength(toJson(result))).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
    expect(result.sections.length).toBeGreaterThan(0);
  });

  it("cuts a provider error the size of a web page, and never exceeds the budget", () => {
    const failed = assistant([], { error: { name: "APIError", message: `<html>${"bad gateway ".repeat(20_000)}</html>` } });
    const agent = assistant(["hi"], { agent: "a".repeat(100_000) });
    const view = buildView("ses_test", [user("q"), failed, agent], false);
    const result = pullMessage(view, failed.id, { ...options, sectionChars: 2000 });
    expect(result.error).toMatch(/^APIError: <html>bad gateway .*… \[\d+ chars more\]$/);
    expect(byteLength(toJson(result))).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
    expect(byteLength(toJson(pullMessage(view, agent.id, options)))).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
  });

  it("labels user files and images", () => {
    const message = user([
      { kind: "text", id: nextId("prt"), text: "see these" },
      { kind: "text", id: nextId("prt"), text: "Called the Read tool", synthetic: true },
      { kind: "file", id: nextId("prt"), mime: "text/plain", filename: "notes.txt", url: "file:///project/notes.txt" },
      { kind: "file", id: nextId("prt"), mime: "image/png", filename: "shot.png" },
    ]);
    const view = buildView("ses_test", [message], false);
    const result = pullMessage(view, message.id, options);
    expect(result.sections.slice(1)).toEqual([
      { type: "text", synthetic: true, content: "Called the Read tool" },
      { type: "file", path: "notes.txt", mime: "text/plain" },
      { type: "image", mime: "image/png", name: "shot.png" },
    ]);
  });
});

describe("history_pull_part", () => {
  it("pages a large part with next_offset and reassembles it exactly", () => {
    const text = Array.from({ length: 4000 }, (_, i) => `line ${i} 😀 "quoted" \\ 中文`).join("\n");
    const message = assistant([{ kind: "text", id: nextId("prt"), text }]);
    const view = buildView("ses_test", [user("q"), message], false);
    const partId = message.parts[0]!.id;
    let offset = 0;
    let rebuilt = "";
    let pages = 0;
    for (;;) {
      const page = pullPart(view, { messageId: message.id, partId, offset, limit: 40_000 }, visibility);
      expect(byteLength(toJson(page))).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
      rebuilt += page.content;
      pages++;
      if (page.next_offset === undefined) break;
      expect(page.total_chars).toBe(text.length);
      offset = page.next_offset;
    }
    expect(rebuilt).toBe(text);
    expect(pages).toBeGreaterThan(2);
  });

  it("renders a tool part as signature, separator and output", () => {
    const call = toolCall("bash", { command: "echo hi" }, "completed", "hi");
    const message = assistant([call]);
    const view = buildView("ses_test", [user("q"), message], false);
    expect(pullPart(view, { messageId: message.id, partId: call.id, offset: 0, limit: 1000 }, visibility)).toEqual({
      type: "tool",
      tool: "bash",
      content: 'bash(command="echo hi")\n---\nhi',
    });
  });

  it("refuses hidden tools, unreadable parts, unknown parts and offsets past the end", () => {
    const call = toolCall("bash", { command: "echo hi" }, "completed", "hi");
    const file = { kind: "file" as const, id: nextId("prt"), mime: "text/plain" };
    const message = assistant([call, file]);
    const view = buildView("ses_test", [user("q"), message], false);
    const hidden = toolVisibility(["!"], ["!"]);
    expect(() => pullPart(view, { messageId: message.id, partId: call.id, offset: 0, limit: 1000 }, hidden)).toThrow(/hidden by the show_tool_input/);
    expect(() => pullPart(view, { messageId: message.id, partId: file.id, offset: 0, limit: 1000 }, visibility)).toThrow(/file part with no text/);
    expect(() => pullPart(view, { messageId: message.id, partId: "prt_x", offset: 0, limit: 1000 }, visibility)).toThrow(
      new RegExp(`Part prt_x not found.*readable parts are: ${call.id}`),
    );
    expect(() => pullPart(view, { messageId: message.id, partId: call.id, offset: 999, limit: 1000 }, visibility)).toThrow(/past the end/);
  });
});
