// What the projection answers a many-session search, over a store projected in memory: which
// sessions it ranks itself (with their chunks and chunk tables), which a search must read, the
// statistics of the rest, the nearest terms of unread sessions, and the summaries.
import { StampedSource } from "./testing/stamped-source.ts";
import { stampWatermark } from "./testing/stamp-watermark.ts";
import { describe, expect, it } from "vitest";
import { textMessage, toolPart } from "../history/testing/messages.ts";
import { toolVisibility } from "../history/tool-visibility.ts";
import type { SessionInfo } from "../history/types.ts";
import { type QueryTerm, sessionTerms, TERM_CHUNK_STRIDE, termCeiling } from "../search/projection-contract.ts";
import { type ProjectionFeed, stampsOneByOne } from "./feed.ts";
import { writeFileSync } from "node:fs";
import { scratchDir } from "../util/testing/scratch-dir.ts";
import { ProjectionBuilder, type ProjectionBuilderOptions } from "./builder.ts";
import { projectionPath } from "./projection-db.ts";
import { ProjectionReader } from "./reader.ts";
import { memoryOpener } from "./testing/memory-projection-db.ts";
import { DEFAULT_TUNING } from "../search/projection-contract.ts";

const visibility = toolVisibility([], []);
const term = (token: string): QueryTerm => ({ token, group: 0, cjk: false, weight: 1 });

function store(): StampedSource {
  const source = new StampedSource();
  const info = (s: number): SessionInfo => ({ id: `ses_${s}`, title: `s${s}`, created: s, updated: 100 + s, directory: "/p" });
  source.put(info(0), [textMessage("ses_0", "user", "the limiter drains", 1), textMessage("ses_0", "assistant", "a limiter bucket", 2)]);
  source.put(info(1), [
    textMessage("ses_1", "user", "bucket sizes", 3),
    textMessage("ses_1", "assistant", "ran it", 4, [toolPart("bash", { command: "limiter --bucket" }, "done")]),
  ]);
  for (let s = 2; s < 6; s++) source.put(info(s), [textMessage(`ses_${s}`, "user", `plain words ${s} limitless`, s)]);
  return source;
}

/** Stamps read, one by one and many at once; `blind`: the store cannot name what changed. */
interface FeedCounts {
  stamp: number;
  stamps: number;
  blind?: boolean;
}

async function projected(
  source: StampedSource,
  counts: FeedCounts = { stamp: 0, stamps: 0 },
  passes?: Pick<ProjectionBuilderOptions, "intervalMs" | "reprojectSpacing">,
): Promise<{ projection: ProjectionReader; builder: ProjectionBuilder }> {
  const stampOf = async (id: string) => (source.stamps.has(id) ? String(source.stamps.get(id)) : undefined);
  const watermark = stampWatermark(source.stamps);
  const feed: ProjectionFeed = {
    storePath: async () => "memory-store",
    sessions: () => source.listSessions(),
    stamp: (id) => {
      counts.stamp++;
      return stampOf(id);
    },
    stamps: (ids) => {
      counts.stamps++;
      return stampsOneByOne(stampOf)(ids);
    },
    messages: (id) => source.loadMessages(id),
    watermark: watermark.watermark,
    changedSince: async (mark) => (counts.blind ? undefined : watermark.changedSince(mark)),
  };
  const dir = scratchDir("finder");
  const common = { feed, enabled: () => true, visibilityKey: () => "v", tuning: DEFAULT_TUNING, log: () => {}, open: memoryOpener(), dir };
  const builder = new ProjectionBuilder({ ...common, visibility: () => visibility, pause: () => undefined, ...passes });
  expect((await builder.untilCurrent("ses_0")).state).toBe("current");
  if (passes) return { projection: builder, builder };
  // Without background passes: a reader over the file the builder wrote (kept in memory; the
  // reader opens only a file that exists on disk).
  writeFileSync(projectionPath("memory-store", dir), "");
  const reader = new ProjectionReader(common);
  expect(await reader.useExisting("ses_0")).toBe(true);
  return { projection: reader, builder };
}

describe("the projection's finder", () => {
  it("ranks the sessions it holds as they are from their chunks, reads the others, sums the rest", async () => {
    const source = store();
    const { projection } = await projected(source);
    const scope = await source.listSessions();
    const narrowed = (await projection.narrow(scope, [term("limiter"), term("bucket")], new Set()))!;
    expect(narrowed.search).toEqual([]);
    expect([...narrowed.projected.keys()].sort()).toEqual(["ses_0", "ses_1"]);
    for (const id of ["ses_0", "ses_1"]) {
      const counted = await sessionTerms(id, await source.loadMessages(id), visibility, DEFAULT_TUNING);
      const holder = narrowed.projected.get(id)!;
      expect([holder.docs, holder.length]).toEqual([counted.docs, counted.length]);
      expect(holder.termChunks()).toEqual(["limiter", "bucket"].map((t) => counted.postings.get(t) ?? []));
      expect(holder.termChunks()).toBe(holder.termChunks());
      expect(holder.df).toEqual(holder.termChunks().map((chunks) => chunks.length / TERM_CHUNK_STRIDE));
      // Each term's ceiling as the search side makes it, rounded up to the stored 1/1024.
      const ceilings = ["limiter", "bucket"].map((t) => termCeiling(counted.postings.get(t) ?? [], counted.length / counted.docs, DEFAULT_TUNING));
      holder.ceilings.forEach((ceiling, t) => {
        expect(ceiling).toBeGreaterThanOrEqual(ceilings[t]!);
        expect(ceiling - ceilings[t]!).toBeLessThan(1 / 1024);
      });
      expect(holder.ceilings.every((ceiling, t) => ceiling > 0 === holder.df[t]! > 0)).toBe(true);
      const table = holder.table();
      expect(Array.from(table.chunks)).toEqual(counted.chunks.chunks);
      expect(counted.chunks.messages.map((_, m) => table.message(m))).toEqual(counted.chunks.messages);
      expect(counted.chunks.parts.map((_, p) => table.part(p))).toEqual(counted.chunks.parts);
      expect(holder.table()).toBe(table);
    }
    expect(narrowed.projected.get("ses_1")!.table().part(2)).toMatchObject({ type: "tool", tool: "bash" });
    const rest = await Promise.all(narrowed.rest.ids.map(async (id) => sessionTerms(id, await source.loadMessages(id), visibility, DEFAULT_TUNING)));
    // In scope order (the listing's, newest first).
    expect(narrowed.rest).toEqual({
      ids: ["ses_5", "ses_4", "ses_3", "ses_2"],
      docs: rest.reduce((sum, one) => sum + one.docs, 0),
      length: rest.reduce((sum, one) => sum + one.length, 0),
    });
  });

  it("has a search read what it does not hold as it is: new, listed otherwise, marked, the caller's, stamp moved", async () => {
    const source = store();
    const { projection } = await projected(source);
    source.put({ id: "ses_new", title: "n", created: 9, updated: 9, directory: "/p" }, [textMessage("ses_new", "user", "limiter", 9)]);
    const relisted = source.sessions.get("ses_2")!;
    source.put({ ...relisted.info, updated: 500 }, relisted.messages);
    projection.markDirty("ses_3");
    source.stamps.set("ses_0", 7);
    const scope = await source.listSessions();
    const narrowed = (await projection.narrow(scope, [term("limiter")], new Set(["ses_4"])))!;
    expect(narrowed.search.map((session) => session.id).sort()).toEqual(["ses_0", "ses_2", "ses_3", "ses_4", "ses_new"]);
    expect([...narrowed.projected.keys()]).toEqual(["ses_1"]);
    expect(narrowed.rest.ids).toEqual(["ses_5"]);
    projection.close();
  });

  it("asks the store what changed since its last complete pass: no stamps per search, nor per pass for the unchanged", async () => {
    const source = store();
    const counts: FeedCounts = { stamp: 0, stamps: 0 };
    const { projection, builder } = await projected(source, counts);
    const ask = async () => (await projection.narrow(await source.listSessions(), [term("limiter")], new Set()))!;
    const searched = (narrowed: Awaited<ReturnType<typeof ask>>) => narrowed.search.map((session) => session.id);
    expect(searched(await ask())).toEqual([]);
    expect(counts.stamps).toBe(0);
    // A message written (its listed time unchanged): the store names it, searches read it.
    const written = source.sessions.get("ses_0")!;
    source.put(written.info, [...written.messages, textMessage("ses_0", "user", "one more limiter", 5)]);
    expect(searched(await ask())).toEqual(["ses_0"]);
    expect(counts.stamps).toBe(0);
    // The next pass reads the stamp of that session alone, and projects it.
    const before = counts.stamp;
    await builder.untilCurrent();
    expect(counts.stamp - before).toBe(1);
    expect(searched(await ask())).toEqual([]);
    expect([...(await ask()).projected.keys()].sort()).toEqual(["ses_0", "ses_1"]);
    // A store that cannot say: every stamp is read, and a change is still seen.
    counts.blind = true;
    source.stamps.set("ses_1", 9);
    expect(searched(await ask())).toEqual(["ses_1"]);
    expect(counts.stamps).toBeGreaterThan(0);
    projection.close();
  });

  it("leaves a session projected lately to a later background pass, unpublished meanwhile: searches read it", async () => {
    for (const spacing of [1e9, 0]) {
      const source = store();
      const { projection } = await projected(source, undefined, { intervalMs: 1, reprojectSpacing: spacing });
      const before = projection.projectedAt("ses_0");
      const written = source.sessions.get("ses_0")!;
      source.put(written.info, [...written.messages, textMessage("ses_0", "user", "one more limiter", 5)]);
      projection.markDirty("ses_0");
      // The background pass, started by the mark, either drops the session or projects it again.
      while (projection.projectedAt("ses_0") === before) await new Promise((resolve) => setTimeout(resolve, 1));
      const narrowed = (await projection.narrow(await source.listSessions(), [term("limiter")], new Set()))!;
      if (spacing > 0) {
        expect(projection.projectedAt("ses_0")).toBeUndefined();
        expect(projection.status().state).toBe("building");
        expect(narrowed.search.map((session) => session.id)).toEqual(["ses_0"]);
      } else {
        expect(projection.projectedAt("ses_0")).toBe(String(source.stamps.get("ses_0")));
        expect(narrowed.search).toEqual([]);
      }
      expect([...narrowed.projected.keys()].sort()).toEqual(spacing > 0 ? ["ses_1"] : ["ses_0", "ses_1"]);
      projection.close();
    }
  });

  it("a chunk table asked for after its session was projected again is refused, never another's chunks", async () => {
    const source = store();
    const { projection, builder } = await projected(source);
    const narrowed = (await projection.narrow(await source.listSessions(), [term("limiter")], new Set()))!;
    const again = source.sessions.get("ses_0")!;
    source.put(again.info, [...again.messages, textMessage("ses_0", "user", "more limiter", 5)]);
    await builder.untilCurrent();
    expect(() => narrowed.projected.get("ses_0")!.table()).toThrow(/projected again/);
    expect(narrowed.projected.get("ses_1")!.table().chunks.length).toBeGreaterThan(0);
  });

  it("gives per word each nearest term once, its documents summed over the sessions named", async () => {
    const source = store();
    const { projection } = await projected(source);
    const nearest = await projection.nearest(["limiterr", "buckett", "zzz"], ["ses_0", "ses_1", "ses_2"]);
    expect(nearest.get("limiterr")).toEqual([{ term: "limiter", distance: 1, df: 3 }]);
    expect(nearest.get("buckett")).toEqual([{ term: "bucket", distance: 1, df: 3 }]);
    expect(nearest.has("zzz")).toBe(false);
    // Only the nearest distance held: "limiter", two edits from "limitess", cannot win over "limitless", one.
    expect((await projection.nearest(["limitess"], ["ses_0", "ses_3"])).get("limitess")).toEqual([{ term: "limitless", distance: 1, df: 1 }]);
    expect((await projection.nearest(["limitess"], ["ses_0"])).get("limitess")).toEqual([{ term: "limiter", distance: 2, df: 2 }]);
    expect((await projection.nearest(["limiterr"], ["ses_4"])).has("limiterr")).toBe(false);
  });

  it("summarises a session it holds as listed: turns and preview", async () => {
    const source = store();
    const { projection } = await projected(source);
    expect(projection.summary("ses_1", 101)).toEqual({ turns: 1, preview: "bucket sizes" });
    expect(projection.summary("ses_1", 102)).toBeUndefined();
    projection.markDirty("ses_1");
    expect(projection.summary("ses_1", 101)).toBeUndefined();
    expect(projection.summary("ses_nope", undefined)).toBeUndefined();
  });
});
