import { afterEach, describe, expect, it, vi } from "vitest";
import { user } from "../../history/testing/messages.ts";
import { toolVisibility } from "../../history/tool-visibility.ts";
import { BuildQueue, IndexBuilder } from "./build.ts";
import { SessionIndex } from "./session-index.ts";
import { DEFAULT_TUNING } from "../tuning.ts";

const T0 = Date.UTC(2025, 0, 1);
const setup = toolVisibility([], []);

afterEach(() => vi.restoreAllMocks());

describe("IndexBuilder's first build", () => {
  it("indexes messages that arrive while it groups its counts before it calls itself built", async () => {
    const first = Array.from({ length: 50 }, (_, i) => user(`walrus handshake number${i}`, { created: T0 + i * 1000 }));
    const later = [...first, user("late quokka message", { created: T0 + 99_000 })];
    const builder = new IndexBuilder(setup, DEFAULT_TUNING, new BuildQueue());
    const groupSteps = SessionIndex.prototype.groupSteps;
    let groupings = 0;
    vi.spyOn(SessionIndex.prototype, "groupSteps").mockImplementation(function* (this: SessionIndex) {
      // The session changes between two pieces of the grouping.
      if (groupings++ === 0) builder.update(later);
      yield;
      yield* groupSteps.call(this);
    });

    builder.update(first);
    await builder.current();

    expect(groupings).toBe(1);
    expect(builder.built).toBe(true);
    expect(builder.index.messageCount).toBe(later.length);
    expect(builder.index.has(later[later.length - 1]!)).toBe(true);
  });
});

describe("IndexBuilder.update", () => {
  it("does not walk the messages of a session with nothing indexed yet: it queues the first build", async () => {
    const messages = Array.from({ length: 3 }, (_, i) => user(`walrus handshake number${i}`, { created: T0 + i * 1000 }));
    let reads = 0;
    for (const message of messages) {
      const parts = message.parts;
      Object.defineProperty(message, "parts", {
        get: () => {
          reads++;
          return parts;
        },
        enumerable: true,
      });
    }
    const builder = new IndexBuilder(setup, DEFAULT_TUNING, new BuildQueue());
    expect(builder.update(messages)).toBe(Infinity);
    expect(reads).toBe(0);
    await builder.current();
    expect(builder.built).toBe(true);
    expect(builder.index.messageCount).toBe(3);
    expect(builder.update(messages)).toBe(0);
  });
});
