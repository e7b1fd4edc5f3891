import { describe, expect, it } from "vitest";
import { assistant, toolCall } from "../history/testing.ts";
import { toolVisibility } from "../history/tool-visibility.ts";
import { CHUNK_CHARS, messageDocs } from "./documents.ts";

const visibility = toolVisibility([], []);

describe("search documents", () => {
  it("indexes tool calls but not this plugin's own history_* calls", () => {
    const message = assistant([
      toolCall("bash", { command: "echo quokka" }, "completed", "quokka"),
      toolCall("history_search", { query: "quokka" }, "completed", '{"messages":[]}'),
    ]);
    const docs = messageDocs(message, visibility);
    expect(docs.map((doc) => doc.tool)).toEqual(["bash"]);
  });

  it("cuts long parts into chunks that cover the text exactly", () => {
    const text = "word ".repeat(3 * CHUNK_CHARS);
    const docs = messageDocs(assistant([text]), visibility);
    expect(docs.length).toBeGreaterThan(3);
    expect(docs.map((doc) => doc.text).join("")).toBe(text);
    for (const doc of docs) expect(doc.text.length).toBeLessThanOrEqual(CHUNK_CHARS);
  });
});
