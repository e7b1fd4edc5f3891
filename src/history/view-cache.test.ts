import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assistant, compactionPair, user } from "./testing/messages.ts";
import type { HistoryMessage } from "./types.ts";
import { visibleTurns } from "./turns.ts";
import { buildView, messageIndex } from "./view.ts";
import { ViewCache } from "./view-cache.ts";

function plain(view: ReturnType<typeof buildView>) {
  return {
    ids: view.messages.map((m) => m.id),
    same: view.messages,
    turns: view.turnNumbers,
    visibleEnd: view.visibleEnd,
    // Lookups find each message where it is (the cache keeps session order).
    index: view.messages.map((m) => messageIndex(view.messages, m.id)),
    // Worked out once per view object: a reused view must still give its session's turns.
    visibleTurns: visibleTurns(view),
  };
}

describe("view cache", () => {
  it("gives the view (and turns) buildView would, across appends, edits, removals and reorders", () => {
    const step = fc.constantFrom("user", "assistant", "compaction", "edit", "drop", "shuffle", "same");
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 25 }), fc.boolean(), fc.boolean(), (steps, self, positioned) => {
        // Positioned messages get ids that sort against their positions (OpenCode 2's forked rows).
        let position = 0;
        const at = (message: HistoryMessage): HistoryMessage => {
          if (!positioned) return message;
          position++;
          return { ...message, id: `msg_p${String(999_999 - position).padStart(6, "0")}`, position };
        };
        const cache = new ViewCache();
        let list: HistoryMessage[] = [at(user("first"))];
        for (const s of steps) {
          if (s === "user") list = [...list, at(user("hello"))];
          else if (s === "assistant")
            list.push(at(assistant(["reply"]))); // in place
          else if (s === "compaction") list = [...list, ...compactionPair(true).map(at)];
          else if (s === "edit" && list.length > 1) list[0] = { ...list[0]!, parts: [] };
          else if (s === "drop" && list.length > 1) list = list.slice(1);
          else if (s === "shuffle" && list.length > 1) list = [list[list.length - 1]!, ...list.slice(0, -1)];
          expect(plain(cache.view("s", list, self))).toEqual(plain(buildView("s", list, self)));
        }
      }),
      { numRuns: 300 },
    );
  });
});
