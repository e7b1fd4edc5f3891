// The caller's own view after compactions the real OpenCode 2.1.2 stored (testing/fixtures/README.md):
// a completed compaction row names in `metadata.keepID` the first message the host re-renders in its
// checkpoint, so the model has the summary and everything from keepID on; the view hides exactly that.
import { describe, expect, it } from "vitest";
import { visibleIndex, buildView } from "../../history/view.ts";
import type { HistoryMessage } from "../../history/types.ts";
import {
  AUTO_FIRST_SESSION as AUTO_FIRST,
  MAIN_SESSION as MAIN,
  STORED_ROWS as stored,
  storedMessages,
  storedRowAt as rowAt,
} from "./testing/fixture-2.1.2.ts";

/** The session's rows up to `lastSeq`, mapped as the reader hands them to the core. */
const messages = (sessionId: string, lastSeq = Infinity): HistoryMessage[] => storedMessages(sessionId, lastSeq + 1);

/** Ids of the caller's own view: [visible, hidden]. */
function ownView(list: HistoryMessage[]): [string[], string[]] {
  const view = buildView(list[0]!.sessionId, list, true);
  const ids = view.messages.map((message) => message.id);
  return [ids.slice(0, view.visibleEnd), ids.slice(view.visibleEnd)];
}

describe("the caller's view after OpenCode 2.1.2's compactions", () => {
  it("the rows are 2.1.2's: keepID in metadata, no recent", () => {
    const compactions = stored.filter((row) => row.type === "compaction").map((row) => JSON.parse(row.data) as Record<string, unknown>);
    expect(compactions.map((data) => data.reason)).toEqual(["manual", "auto", "auto", "auto"]);
    for (const data of compactions) {
      expect(Object.keys(data).sort()).toEqual(["metadata", "model", "reason", "status", "summary", "time"]);
      expect(data.metadata).toEqual({ keepID: expect.stringMatching(/^msg_/) });
    }
  });

  it("a manual compaction hides its summary and the kept turn, nothing older", () => {
    const list = messages(MAIN, 54);
    const keep = rowAt(MAIN, 38); // the fourth prompt, re-rendered in the checkpoint
    expect(JSON.parse(rowAt(MAIN, 48).data).metadata.keepID).toBe(keep.id);
    const [visible, hidden] = ownView(list);
    expect(hidden).toEqual([keep.id, rowAt(MAIN, 39).id, rowAt(MAIN, 48).id, rowAt(MAIN, 53).id, rowAt(MAIN, 54).id]);
    expect(visible.at(-1)).toBe(rowAt(MAIN, 30).id); // the third answer
    const view = buildView(MAIN, list, true);
    expect(() => visibleIndex(view, keep.id)).toThrow(/already in your context/);
    // Another session's view of it (and the CLI's) shows everything.
    expect(buildView(MAIN, list, false).visibleEnd).toBe(list.length);
  });

  it("an automatic compaction before a prompt's first step keeps the prompt; the one before it becomes history", () => {
    const [visible, hidden] = ownView(messages(MAIN, 72));
    expect(hidden).toEqual([rowAt(MAIN, 71).id, rowAt(MAIN, 72).id]);
    // The manual checkpoint's summary and tail are no longer in the model's context.
    expect(visible).toContain(rowAt(MAIN, 48).id);
    expect(visible).toContain(rowAt(MAIN, 38).id);
  });

  it("a second automatic compaction mid-turn keeps only the step from keepID on", () => {
    const list = messages(MAIN);
    const [visible, hidden] = ownView(list);
    const keep = rowAt(MAIN, 74); // the step's tool-call message
    expect(hidden[0]).toBe(keep.id);
    expect(hidden).toContain(rowAt(MAIN, 81).id);
    expect(visible.at(-1)).toBe(rowAt(MAIN, 72).id); // the previous summary
    expect(visible.at(-2)).toBe(rowAt(MAIN, 71).id); // the seventh prompt went into the summary
    expect(visible.length + hidden.length).toBe(list.length);
  });

  it("an automatic compaction after a long first message keeps the new prompt", () => {
    const [visible, hidden] = ownView(messages(AUTO_FIRST));
    expect(visible).toEqual([rowAt(AUTO_FIRST, 4).id, rowAt(AUTO_FIRST, 5).id]);
    expect(hidden).toEqual([rowAt(AUTO_FIRST, 13).id, rowAt(AUTO_FIRST, 14).id, rowAt(AUTO_FIRST, 16).id]);
  });

  it("a compaction without keepID hides from its summary on", () => {
    const list = messages(AUTO_FIRST).map((message) =>
      message.summary ? { ...message, parts: message.parts.map((part) => (part.kind === "compaction" ? { ...part, tailStartId: undefined } : part)) } : message,
    );
    const [visible, hidden] = ownView(list);
    expect(visible).toEqual([rowAt(AUTO_FIRST, 4).id, rowAt(AUTO_FIRST, 5).id, rowAt(AUTO_FIRST, 13).id]);
    expect(hidden).toEqual([rowAt(AUTO_FIRST, 14).id, rowAt(AUTO_FIRST, 16).id]);
  });
});
