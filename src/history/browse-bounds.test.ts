import { describe, expect, it } from "vitest";
import { browseMessages } from "./browse-messages.ts";
import { browseTurns } from "./browse-turns.ts";
import { byteLength, toJson } from "./compact.ts";
import { MAX_ANSWER_BYTES } from "./limits.ts";
import { assistant, toolCall, user } from "./testing/messages.ts";
import type { HistoryMessage } from "./types.ts";
import { buildView, messageIndex } from "./view.ts";

const CJK = "限流器使用令牌桶算法每个密钥每分钟一百个请求。".repeat(100);

function cjkSession(turns: number): HistoryMessage[] {
  const messages: HistoryMessage[] = [];
  for (let i = 0; i < turns; i++) messages.push(user(`${i} ${CJK}`), assistant([`${i} ${CJK}`]));
  return messages;
}

describe("browse answers stay under the byte cap", () => {
  it("cuts a window of long CJK previews at the edge farther from the anchor, and pages on without gaps", () => {
    const view = buildView("ses_b", cjkSession(200), false);
    const options = { previewChars: 2000, cap: 1000, directory: "/p" };
    const anchor = view.messages[200]!.id;
    const window = browseMessages(view, { messageId: anchor, numBefore: 100, numAfter: 100 }, options);
    expect(byteLength(toJson(window))).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
    expect(window.note).toMatch(/cut to \d+ messages/);
    const ids = window.messages.map((m) => m.message_id);
    expect(ids).toContain(anchor);
    const first = messageIndex(view.messages, ids[0]!)!;
    const last = messageIndex(view.messages, ids.at(-1)!)!;
    // Balanced around the anchor, and the edge ids are the neighbours left out.
    expect(Math.abs(200 - first - (last - 200))).toBeLessThanOrEqual(1);
    expect(window.before_message_id).toBe(view.messages[first - 1]!.id);
    expect(window.after_message_id).toBe(view.messages[last + 1]!.id);

    const turns = browseTurns(view, { numBefore: 100, numAfter: 0 }, options);
    expect(byteLength(toJson(turns))).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
    expect(turns.turns.at(-1)!.turn_number).toBe(200);
    expect(turns.note).toMatch(/cut to \d+ turns \(\d+ to 200\)/);
  });

  it("shortens long lists of modified files, tool calls and attachments", () => {
    const writes = Array.from({ length: 1500 }, (_, i) => toolCall("write", { filePath: `/p/${"gen/".repeat(60)}f${i}.ts` }));
    const tools = Array.from({ length: 300 }, (_, i) => toolCall(`mcp_${i}`, {}));
    const files = Array.from({ length: 800 }, (_, i) => ({ kind: "file" as const, id: `prt_f${i}`, mime: "text/plain", url: `file:///p/${i}.txt` }));
    const view = buildView("ses_b", [user([{ kind: "text", id: "prt_t", text: "go" }, ...files]), assistant([...writes, ...tools, "done"])], false);
    const [turn] = browseTurns(view, { numBefore: 0, numAfter: 0 }, { previewChars: 160, cap: 50, directory: "/p" }).turns;
    expect(turn!.assistant!.modified).toHaveLength(21);
    expect(turn!.assistant!.modified!.at(-1)).toBe("… 1480 more");
    expect(turn!.assistant!.modified![0]!.length).toBeLessThanOrEqual(200);
    expect(turn!.assistant!.tool!.calls.at(-1)).toBe("… 281 more");
    expect(turn!.user!.attachment!.at(-1)).toBe("… 780 more");
    const [message] = browseMessages(
      view,
      { messageId: view.messages[0]!.id, numBefore: 0, numAfter: 0 },
      { previewChars: 160, cap: 50, directory: "/p" },
    ).messages;
    expect(message!.attachment).toHaveLength(21);
  });
});
