// The projection changes what a many-session search reads, never what it answers: over generated
// stores of many small sessions, global and project searches and history_sessions through the
// projection give exactly (same sessions, messages, scores, corrections) what reading every
// session gives, before and after the store changes under it. With segments of a few sessions,
// a session projected again while its older postings sit in an older segment, and merges that
// drop them; and a second process answering from the file the first one wrote.
import { describe, expect, it } from "vitest";
import { defaultConfig, type EngramConfig } from "../config/schema.ts";
import { textMessage, toolPart, reasoningPart } from "../history/testing/messages.ts";
import { toolVisibility } from "../history/tool-visibility.ts";
import type { HistoryMessage, SessionInfo } from "../history/types.ts";
import { createSearchService, type SearchService } from "../search/api.ts";
import { seededRandom } from "../util/testing/seeded-random.ts";
import { MemorySource } from "../store/testing/memory-source.ts";
import { memoryOpener } from "./testing/memory-projection-db.ts";
import { COMMON, COMMON_QUERIES, RARE, searchAnswers as answers } from "./testing/projection-answers.ts";
import { type ProjectionFeed, stampsOneByOne } from "./feed.ts";
import { stampWatermark } from "./testing/stamp-watermark.ts";
import { ProjectionBuilder } from "./builder.ts";
import { DEFAULT_TUNING } from "../search/projection-contract.ts";

class StoreSource extends MemorySource {
  /** Per session, a stamp the feed reports (bumped on every change). */
  readonly stamps = new Map<string, number>();
  listEverySession(): Promise<SessionInfo[]> {
    return this.listSessions();
  }
  put(info: SessionInfo, messages: HistoryMessage[]): void {
    this.add(info, messages);
    this.stamps.set(info.id, (this.stamps.get(info.id) ?? 0) + 1);
  }
}

function sentence(random: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(random() < 0.12 ? RARE[Math.floor(random() * RARE.length)]! : COMMON[Math.floor(random() * COMMON.length)]!);
  return `${out.join(" ")}.`;
}

function generatedStore(seed: number): StoreSource {
  const random = seededRandom(seed);
  const source = new StoreSource();
  const sessions = 6 + Math.floor(random() * 10);
  for (let s = 0; s < sessions; s++) {
    const id = `ses_${seed}_${s}`;
    const start = Date.UTC(2025, 0, 1) + s * 1_000_000;
    const messages: HistoryMessage[] = [];
    const count = 1 + Math.floor(random() * 7);
    for (let m = 0; m < count; m++) {
      const long = random() < 0.1;
      const text = long ? Array.from({ length: 120 }, () => sentence(random, 8)).join("\n") : sentence(random, 3 + Math.floor(random() * 30));
      const extra =
        random() < 0.3
          ? [toolPart("bash", { command: sentence(random, 4) }, sentence(random, 12))]
          : random() < 0.2
            ? [reasoningPart(sentence(random, 10))]
            : [];
      const message = textMessage(id, m % 2 === 0 ? "user" : "assistant", text, start + m * 1000, extra);
      // Now and then a compaction summary: it scores at the summary weight, and so does its reach.
      if (message.role === "assistant" && random() < 0.15) message.summary = true;
      messages.push(message);
    }
    source.put(
      { id, title: random() < 0.2 ? `about ${RARE[s % RARE.length]}` : `session ${s}`, created: start, updated: start + count * 1000, directory: "/p" },
      messages,
    );
  }
  return source;
}

function feedOf(source: StoreSource): ProjectionFeed {
  return {
    storePath: async () => "memory-store",
    sessions: () => source.listSessions(),
    stamp: async (id) => String(source.stamps.get(id)),
    stamps: stampsOneByOne(async (id) => String(source.stamps.get(id))),
    messages: (id) => source.loadMessages(id),
    ...stampWatermark(source.stamps),
  };
}

function services(
  source: StoreSource,
  open: ReturnType<typeof memoryOpener>,
  segmentPostings?: number,
  concurrency = 1,
): { plain: SearchService; projected: SearchService; projection: ProjectionBuilder } {
  const config: EngramConfig = defaultConfig();
  config.search.project_concurrency = concurrency;
  config.search.project_time_budget_ms = 60_000;
  config.projection.min_sessions = 2;
  const visibility = toolVisibility(config.show_tool_input, config.show_tool_output);
  const projection = new ProjectionBuilder({
    feed: feedOf(source),
    enabled: () => true,
    visibility: () => visibility,
    visibilityKey: () => "default",
    tuning: DEFAULT_TUNING,
    pause: () => undefined,
    log: () => {},
    open,
    intervalMs: 3_600_000,
    ...(segmentPostings ? { segmentPostings } : {}),
  });
  const base = { source, config: () => config, visibility: () => visibility };
  return { plain: createSearchService(base), projected: createSearchService({ ...base, finder: projection }), projection };
}

/** What an answer ranks: sessions, messages and scores. */
const ranked = (answer: Awaited<ReturnType<SearchService["search"]>>) => ({
  unsearched: answer.unsearched,
  results: answer.results.map((r) => [r.sessionId, r.message.id, r.score]),
});

// Sessions read one at a time, and several at once.
const SEGMENTINGS = [
  { name: "one segment a pass, one session read at a time", segmentPostings: undefined, concurrency: 1 },
  { name: "segments of a few sessions, merged, three read at a time", segmentPostings: 40, concurrency: 3 },
];

describe("projection property: the same answers as reading every session", () => {
  for (const { name, segmentPostings, concurrency } of SEGMENTINGS) {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      it(`seed ${seed}, ${name}: built, then the store changed under it`, async () => {
        const source = generatedStore(seed);
        const open = memoryOpener();
        const { plain, projected, projection } = services(source, open, segmentPostings, concurrency);
        const caller = seed % 2 === 0 ? `ses_${seed}_0` : "ses_elsewhere";
        projection.observe(caller);
        expect((await projection.untilCurrent()).state).toBe("current");
        // Proof that the projection is used: a rare-word search reads fewer sessions.
        const loads = source.loads;
        await projected.search({ query: "websocket", callerSessionId: caller, scope: "global", types: ["text"] });
        const read = source.loads - loads;
        expect(read).toBeLessThan(source.sessions.size);
        expect(await answers(projected, caller)).toEqual(await answers(plain, caller));
        // Common words, held by nearly every session: ranked from the projection, no session is
        // read whole but the caller's own (its live context hidden), whatever the limit.
        const ownReads = caller === "ses_elsewhere" ? 0 : 1;
        for (const query of COMMON_QUERIES) {
          const request = { query, callerSessionId: caller, scope: "global", types: ["text", "tool", "reasoning"], limit: 1 } as const;
          const before = source.loads;
          const found = ranked(await projected.search(request));
          expect(source.loads - before).toBe(ownReads);
          expect(found).toEqual(ranked(await plain.search(request)));
          const asked = { query, limit: 1, includeChildren: true, global: true, callerSessionId: caller };
          const sessionsBefore = source.loads;
          const best = await projected.sessions(asked);
          expect(source.loads - sessionsBefore).toBe(ownReads);
          expect(best).toEqual(await plain.sessions(asked));
        }

        // A new message with a rare word (the session's listed time unchanged: only its stamp
        // moved), a session removed: seen before the next pass, and after it.
        const [first, second] = [...source.sessions.values()];
        const info = { ...first!.info };
        source.put(info, [...first!.messages, textMessage(info.id, "assistant", "the websocket limiter payment", (info.updated ?? 0) + 1)]);
        source.sessions.delete(second!.info.id);
        const changed = await answers(plain, caller);
        expect(await answers(projected, caller)).toEqual(changed);
        await projection.untilCurrent();
        expect(await answers(projected, caller)).toEqual(changed);

        // Another process over the same file: it reads what the first one wrote, and sees the
        // first one's later writes (a session changed again, projected by the first).
        const other = services(source, open, segmentPostings, concurrency);
        const loadsBefore = source.loads;
        expect((await other.projection.untilCurrent(caller)).state).toBe("current");
        expect(source.loads).toBe(loadsBefore);
        expect(await answers(other.projected, caller)).toEqual(changed);
        const third = [...source.sessions.values()][2]!;
        source.put({ ...third.info }, [...third.messages, textMessage(third.info.id, "user", "stylesheet sandbox tracing", (third.info.updated ?? 0) + 1)]);
        await projection.untilCurrent();
        expect(await answers(other.projected, caller)).toEqual(await answers(plain, caller));
        other.projection.close();
        projection.close();
      });
    }
  }

  it("a host event for a session deleted from the store does not hold the projection short of current", async () => {
    const source = generatedStore(9);
    const { projection } = services(source, memoryOpener());
    const [, doomed] = [...source.sessions.keys()];
    source.sessions.delete(doomed!);
    // The event arrives before any pass: without the pass forgetting it, none would ever end current.
    projection.forget(doomed!);
    const status = await projection.untilCurrent("ses_9_0");
    expect(status.state).toBe("current");
    expect(status.projected).toBe(source.sessions.size);
    projection.close();
  });
});
