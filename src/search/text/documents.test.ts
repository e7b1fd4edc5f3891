import { describe, expect, it } from "vitest";
import { assistant, toolCall } from "../../history/testing/messages.ts";
import { toolVisibility } from "../../history/tool-visibility.ts";
import fc from "fast-check";
import { chunkEnd, messageDocs, partSearchText, partTextPieces, sliceOfPieces } from "./documents.ts";
import { DEFAULT_TUNING } from "../tuning.ts";

const visibility = toolVisibility([], []);

describe("search documents", () => {
  it("indexes tool calls but not this plugin's own history_* calls", () => {
    const message = assistant([
      toolCall("bash", { command: "echo quokka" }, "completed", "quokka"),
      toolCall("history_search", { query: "quokka" }, "completed", '{"messages":[]}'),
    ]);
    const docs = messageDocs(message, visibility, DEFAULT_TUNING.chunkChars);
    expect(docs.map((doc) => doc.tool)).toEqual(["bash"]);
  });

  it("cuts long parts into chunks that cover the text exactly", () => {
    const text = "word ".repeat(3 * DEFAULT_TUNING.chunkChars);
    const docs = messageDocs(assistant([text]), visibility, DEFAULT_TUNING.chunkChars);
    expect(docs.length).toBeGreaterThan(3);
    expect(docs.map((doc) => doc.text).join("")).toBe(text);
    for (const doc of docs) expect(doc.text.length).toBeLessThanOrEqual(DEFAULT_TUNING.chunkChars);
  });
});

describe("partTextPieces", () => {
  it("concatenate to the part's searchable text, and slices of them are its slices", () => {
    const long = "line of output\n".repeat(700);
    const parts = [
      toolCall("bash", { command: "ls" }, "completed", long),
      toolCall("read", { filePath: "a.ts" }, "completed", long),
      toolCall("bash", { command: "x" }, "error", "boom"),
      toolCall("bash", { command: "y" }, "completed", ""),
      assistant([]).parts[0] ?? toolCall("grep", "raw input", "completed", "hit"),
    ];
    for (const vis of [visibility, toolVisibility(["!bash"], []), toolVisibility([], ["!"])]) {
      for (const part of parts) {
        const text = partSearchText(part, vis)?.text ?? "";
        const pieces = partTextPieces(part, vis);
        expect(pieces.join("")).toBe(text);
        for (const [a, b] of [
          [0, 5],
          [3, 9000],
          [Math.max(0, text.length - 7), text.length],
          [0, text.length],
          [8, 8],
        ] as const) {
          expect(sliceOfPieces(pieces, a, b)).toBe(text.slice(a, b));
        }
      }
    }
  });
});

describe("messageDocs from pieces", () => {
  it("cuts exactly the chunks the joined text would give", () => {
    const bits = ["word ", "line\n", "x".repeat(700), "\ud83d\ude00", "é", " ", "\n", "ab".repeat(300)];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...bits), { maxLength: 60 }), fc.array(fc.constantFrom(...bits), { maxLength: 4 }), (out, cmd) => {
        const message = assistant([toolCall("bash", { command: cmd.join("") }, "completed", out.join("") || "ok"), out.join("")].filter((p) => p !== ""));
        const expected: Array<{ start: number; end: number; text: string }> = [];
        for (const part of message.parts) {
          const text = partSearchText(part, visibility)?.text ?? "";
          for (let start = 0; start < text.length; ) {
            const end = chunkEnd(text, start, DEFAULT_TUNING.chunkChars);
            expected.push({ start, end, text: text.slice(start, end) });
            start = end;
          }
        }
        expect(messageDocs(message, visibility, DEFAULT_TUNING.chunkChars).map(({ start, end, text }) => ({ start, end, text }))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
