import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { user } from "../history/testing/messages.ts";
import type { HistoryMessage } from "../history/types.ts";
import { inSessionOrder } from "../history/message-order.ts";
import { withChanges } from "./message-list.ts";

/** Positioned messages sort against their ids (as OpenCode 2's forked rows can). */
const message = (id: string, text: string, positioned = false): HistoryMessage =>
  positioned ? { ...user(text), id, position: 1000 - Number(id.slice(4)) } : { ...user(text), id };

/** What a refresh gave before: every message in a map, the re-read ones applied, all sorted. */
function rebuilt(list: readonly HistoryMessage[], reread: ReadonlyMap<string, HistoryMessage | undefined>): HistoryMessage[] {
  const current = new Map(list.map((m) => [m.id, m]));
  for (const [id, m] of reread) {
    if (!m) current.delete(id);
    else if (!current.has(id) || !isDeepStrictEqual(current.get(id)!, m)) current.set(id, m);
  }
  return [...current.values()].sort(inSessionOrder);
}

describe("withChanges", () => {
  it("gives the list a full rebuild gives, keeping equal messages' objects", () => {
    const id = fc.integer({ min: 0, max: 60 }).map((n) => `msg_${n.toString().padStart(3, "0")}`);
    fc.assert(
      fc.property(
        fc.uniqueArray(id, { maxLength: 30 }),
        fc.array(fc.tuple(id, fc.constantFrom("gone", "same", "other")), { maxLength: 8 }),
        fc.boolean(),
        fc.boolean(),
        (ids, changes, shuffled, positioned) => {
          const sorted = ids.map((i) => message(i, "text", positioned)).sort(inSessionOrder);
          const list = shuffled ? [...sorted].reverse() : sorted;
          const reread = new Map<string, HistoryMessage | undefined>();
          for (const [changed, kind] of changes) {
            const cached = list.find((m) => m.id === changed);
            // "same": read again unchanged (an equal copy), or new when not cached.
            reread.set(changed, kind === "gone" ? undefined : kind === "same" && cached ? { ...cached } : message(changed, kind, positioned));
          }
          const got = withChanges(list, reread);
          const expected = rebuilt(list, reread);
          expect(got.length).toBe(expected.length);
          // The same objects, not only equal ones: the index keeps documents by object identity.
          for (const [i, m] of got.entries()) expect(m).toBe(expected[i]);
          // Chained refreshes keep working from a list withChanges made.
          expect(withChanges(got, new Map())).toEqual(got);
        },
      ),
      { numRuns: 300 },
    );
  });
});
