// The plugin's projection with its passes on a build thread. In Node the thread's side
// (build-serve.ts) runs over a MessageChannel in this process, over an in-memory store and file
// the host's side reads too; in the host's Bun a real Worker runs build-worker.ts over a SQLite
// store. A thread that cannot start, fails or ends unasked leaves the passes on this thread.
import { StampedSource } from "./testing/stamped-source.ts";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { textMessage } from "../history/testing/messages.ts";
import type { QueryTerm } from "../search/projection-contract.ts";
import { memoryOpener } from "./testing/memory-projection-db.ts";
import { runInBun } from "../store/testing/run-in-bun.ts";
import { type BuildStart, serveBuild, type ToBuild } from "./build-serve.ts";
import { type BuildThread, ThreadedProjection, type ThreadedProjectionOptions } from "./build-thread.ts";
import { type ProjectionFeed, stampsOneByOne } from "./feed.ts";
import { stampWatermark } from "./testing/stamp-watermark.ts";
import type { openProjection } from "./projection-db.ts";
import { ToolCalls } from "./tool-calls.ts";
import { scratchDir } from "../util/testing/scratch-dir.ts";
import { DEFAULT_TUNING } from "../search/projection-contract.ts";

function store(): StampedSource {
  const source = new StampedSource();
  for (let s = 0; s < 8; s++) {
    const id = `ses_${s}`;
    const text = s === 3 ? "the limiter bucket drains" : `plain words of session ${s}`;
    source.put({ id, title: `session ${s}`, created: s * 1000, updated: s * 1000 + 10, directory: "/p" }, [textMessage(id, "user", text, s * 1000)]);
  }
  return source;
}

function feedOf(source: StampedSource): ProjectionFeed {
  return {
    storePath: async () => "memory-store",
    sessions: () => source.listSessions(),
    stamp: async (id) => (source.stamps.has(id) ? String(source.stamps.get(id)) : undefined),
    stamps: stampsOneByOne(async (id) => (source.stamps.has(id) ? String(source.stamps.get(id)) : undefined)),
    messages: (id) => source.loadMessages(id),
    ...stampWatermark(source.stamps),
  };
}

/** The memory file, with a file on disk where the real one would be (the host's finder opens only a file that exists). */
function touchingOpener(): typeof openProjection {
  const open = memoryOpener();
  return async (path, identity) => {
    writeFileSync(path, "");
    return open(path, identity);
  };
}

const term = (token: string): QueryTerm => ({ token, group: 0, cjk: false, weight: 1 });
const ports: MessagePort[] = [];

afterEach(() => {
  for (const port of ports.splice(0)) port.close();
});

/** A build thread in this process: build-serve.ts on the other end of a MessageChannel. */
function channelThread(
  source: StampedSource,
  open: typeof openProjection,
  sent: ToBuild[],
  feed = feedOf(source),
  settled?: () => void,
): (start: BuildStart) => BuildThread {
  return (start) => {
    const { port1, port2 } = new MessageChannel();
    ports.push(port1, port2);
    serveBuild(port2, start, feed, () => {}, settled ? { open, settled } : { open });
    return {
      postMessage: (message: ToBuild) => {
        sent.push(message);
        port1.postMessage(message);
      },
      on: (event: string, listener: (value: unknown) => void) => (event === "message" ? port1.on("message", listener) : undefined),
      terminate: async () => port1.close(),
    } as BuildThread;
  };
}

function projectionOver(source: StampedSource, extra: Partial<ThreadedProjectionOptions>, log: string[] = []): ThreadedProjection {
  return new ThreadedProjection({
    feed: feedOf(source),
    generation: "opencode-1",
    showTools: () => ({ input: [], output: [] }),
    enabled: () => true,
    visibilityKey: () => "default",
    tuning: DEFAULT_TUNING,
    log: (level, message) => log.push(`${level}: ${message}`),
    dir: scratchDir("build-thread"),
    intervalMs: 3_600_000,
    ...extra,
  });
}

/** The store's feed, with the sessions it was asked to read whole. */
function readingFeed(source: StampedSource, read: string[]): ProjectionFeed {
  const feed = feedOf(source);
  return {
    ...feed,
    messages(id, options) {
      read.push(id);
      return feed.messages(id, options);
    },
  };
}

/** One of our tools running on `calls` until `end` is called. */
function runningCall(calls: ToolCalls): { end: () => void; done: Promise<void> } {
  let end = () => {};
  const done = calls.during(() => new Promise<void>((resolve) => (end = resolve)));
  return { end, done };
}

/** Turns of the event loop until `check` holds (at most `turns`). */
async function until(check: () => boolean | Promise<boolean>, turns = 2000): Promise<boolean> {
  for (let turn = 0; turn < turns; turn++) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return check();
}

/**
 * The sessions a search of `token` over the whole store ranks, as the projection narrows it: those
 * it reads from the store and those the projection holds as they are with the term.
 */
async function reads(projection: ThreadedProjection, source: StampedSource, token: string): Promise<string[] | undefined> {
  const narrowed = await projection.narrow(await source.listSessions(), [term(token)], new Set());
  return narrowed && [...narrowed.search.map((session) => session.id), ...narrowed.projected.keys()].sort();
}

describe("projection on a build thread", () => {
  it("is built by the thread; the host's finder narrows from the file the thread writes", async () => {
    const source = store();
    const sent: ToBuild[] = [];
    const open = touchingOpener();
    const projection = projectionOver(source, { startThread: channelThread(source, open, sent), open });
    expect(await reads(projection, source, "limiter")).toBeUndefined(); // nothing built yet: every session read
    projection.observe("ses_0");
    expect(await until(() => projection.status().projected === 8)).toBe(true);
    expect(await until(async () => (await reads(projection, source, "limiter"))?.length === 1)).toBe(true);
    expect(await reads(projection, source, "limiter")).toEqual(["ses_3"]);
    // Held as it is: ranked from the projection, its chunk table read from the file when asked.
    const narrowed = (await projection.narrow(await source.listSessions(), [term("limiter")], new Set()))!;
    expect(narrowed.search).toEqual([]);
    const holder = narrowed.projected.get("ses_3")!;
    expect([holder.df, holder.termChunks()]).toEqual([[1], [[0, 1, 25, 0]]]);
    expect(holder.table().part(0).type).toBe("text");
    expect(holder.table()).toBe(holder.table());
    expect(narrowed.rest.ids).toHaveLength(7);
    expect(projection.summary("ses_3", 3010)).toEqual({ turns: 1, preview: "the limiter bucket drains" });
    expect(projection.summary("ses_3", 3011)).toBeUndefined();
    await projection.close();
    expect(sent.at(-1)).toEqual({ kind: "close" });
  });

  it("reads a session a host event marked until the thread projected it again after the mark", async () => {
    const source = store();
    const open = touchingOpener();
    const projection = projectionOver(source, { startThread: channelThread(source, open, []), open });
    projection.observe("ses_0");
    expect(await until(async () => (await reads(projection, source, "limiter"))?.length === 1)).toBe(true);

    const info = source.sessions.get("ses_5")!.info;
    source.put(info, [...source.sessions.get("ses_5")!.messages, textMessage("ses_5", "assistant", "a websocket now", 6000)]);
    projection.markDirty("ses_5");
    // At once, before the thread has even heard of it.
    expect(await reads(projection, source, "limiter")).toEqual(["ses_3", "ses_5"]);
    // Projected again by the thread: read for the word it holds, left unread for the others.
    expect(await until(async () => (await reads(projection, source, "limiter"))?.length === 1)).toBe(true);
    expect(await reads(projection, source, "websocket")).toEqual(["ses_5"]);
    await projection.close();
  });

  it("says when every session is current after a build, not after each idle pass", async () => {
    const source = store();
    const open = touchingOpener();
    let settled = 0;
    const projection = projectionOver(source, { startThread: channelThread(source, open, [], feedOf(source), () => settled++), open, intervalMs: 20 });
    projection.observe("ses_0");
    // The thread calls settled as it sends the status that says current: the host sees it a turn later.
    expect(await until(() => settled === 1 && projection.status().state === "current")).toBe(true);
    // Idle passes (one each 20 ms) over several reports project nothing: no more calls.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(settled).toBe(1);
    await projection.close();
  });

  it("hands config changes to the thread: turned off, it is told so and the finder answers nothing", async () => {
    const source = store();
    const open = touchingOpener();
    const sent: ToBuild[] = [];
    let enabled = true;
    const projection = projectionOver(source, { enabled: () => enabled, startThread: channelThread(source, open, sent), open });
    projection.observe("ses_0");
    expect(await until(() => projection.status().projected === 8)).toBe(true);
    enabled = false;
    expect(projection.status().state).toBe("off");
    expect(sent.at(-1)).toMatchObject({ kind: "settings", settings: { enabled: false } });
    expect(await reads(projection, source, "limiter")).toBeUndefined();
    await projection.close();
  });

  it("reads the settings again only when the config is another object; a new one reaches the thread", async () => {
    const source = store();
    const open = touchingOpener();
    const sent: ToBuild[] = [];
    let config = { enable: true };
    let settingsRead = 0;
    const projection = projectionOver(source, {
      config: () => config,
      enabled: () => config.enable,
      showTools: () => {
        settingsRead++;
        return { input: [], output: [] };
      },
      startThread: channelThread(source, open, sent),
      open,
    });
    projection.observe("ses_0");
    expect(await until(() => projection.status().projected === 8)).toBe(true);
    const before = settingsRead;
    for (let event = 0; event < 50; event++) projection.markDirty(`ses_${event % 8}`);
    projection.status();
    expect(settingsRead).toBe(before);
    config = { enable: false };
    projection.observe("ses_1");
    expect(settingsRead).toBe(before + 1);
    expect(sent.filter((message) => message.kind === "settings")).toEqual([
      { kind: "settings", settings: { enabled: false, showToolInput: [], showToolOutput: [], visibilityKey: "default" } },
    ]);
    expect(projection.status().state).toBe("off");
    await projection.close();
  });

  it("gives way while one of our tools runs: the thread reads no session until the call ended, then builds", async () => {
    const source = store();
    const open = touchingOpener();
    const calls = new ToolCalls();
    const read: string[] = [];
    const call = runningCall(calls);
    const projection = projectionOver(source, { toolCalls: calls, startThread: channelThread(source, open, [], readingFeed(source, read)), open });
    projection.observe("ses_0");
    expect(await until(() => calls.held() > 0)).toBe(true);
    // A projection beside it, with no call running, is built meanwhile; this one read nothing.
    const beside = projectionOver(source, { toolCalls: new ToolCalls(), startThread: channelThread(source, open, []), open });
    beside.observe("ses_0");
    expect(await until(() => beside.status().projected === 8)).toBe(true);
    expect(read).toEqual([]);
    expect(projection.status().projected).toBe(0);
    call.end();
    await call.done;
    expect(await until(() => projection.status().projected === 8)).toBe(true);
    expect(read.sort()).toEqual([...source.sessions.keys()].sort());
    await Promise.all([projection.close(), beside.close()]);
  });

  it("never starves: with a call that never ends it runs a slice after each bounded hold, and is built", async () => {
    const source = store();
    const open = touchingOpener();
    const calls = new ToolCalls();
    const call = runningCall(calls);
    const projection = projectionOver(source, { toolCalls: calls, pace: { graceMs: 100, maxHoldMs: 20 }, startThread: channelThread(source, open, []), open });
    projection.observe("ses_0");
    expect(await until(() => projection.status().projected === 8)).toBe(true);
    expect(calls.running()).toBe(1);
    // Before the pass, before each of the 8 sessions, before the segment's write.
    expect(calls.held()).toBeGreaterThanOrEqual(10);
    call.end();
    await call.done;
    await projection.close();
  });

  it("a thread that cannot start: logged once, the projection unavailable and saying why, searches read every session", async () => {
    const source = store();
    const log: string[] = [];
    const projection = projectionOver(
      source,
      {
        startThread: () => {
          throw new Error("no workers here");
        },
        open: memoryOpener(),
      },
      log,
    );
    projection.observe("ses_0");
    projection.observe("ses_1");
    expect(await until(() => projection.status().state === "unavailable")).toBe(true);
    expect(projection.status().reason).toBe("the build thread could not start (no workers here)");
    expect(await reads(projection, source, "limiter")).toBeUndefined();
    expect(projection.summary("ses_1", undefined)).toBeUndefined();
    expect(log.filter((line) => line.includes("build thread"))).toEqual([
      "warn: projection build thread could not start (no workers here); the projection is unavailable and many-session searches read every session",
    ]);
    await projection.close();
  });

  it("a thread that fails later: logged once, the projection unavailable from then on", async () => {
    const source = store();
    const log: string[] = [];
    const listeners = new Map<string, (value: unknown) => void>();
    const projection = projectionOver(
      source,
      {
        startThread: () =>
          ({
            postMessage: () => {},
            on: (event: string, listener: (value: unknown) => void) => listeners.set(event, listener),
            terminate: async () => 0,
          }) as BuildThread,
        open: memoryOpener(),
      },
      log,
    );
    projection.observe("ses_0");
    expect(await until(() => listeners.has("error"))).toBe(true);
    listeners.get("error")!(new Error("thread crashed"));
    listeners.get("exit")!(1);
    expect(log.filter((line) => line.includes("build thread"))).toEqual([
      "warn: projection build thread failed (thread crashed); the projection is unavailable and many-session searches read every session",
    ]);
    expect(projection.status()).toMatchObject({ state: "unavailable", reason: "the build thread failed (thread crashed)" });
    expect(await reads(projection, source, "limiter")).toBeUndefined();
    await projection.close();
  });

  it("in Node with this module as TypeScript, the Worker cannot load it: unavailable, never a crash", async () => {
    const source = store();
    const log: string[] = [];
    const projection = projectionOver(source, { open: memoryOpener() }, log);
    projection.observe("ses_0");
    expect(await until(() => projection.status().state === "unavailable")).toBe(true);
    expect(log.some((line) => line.includes("the projection is unavailable"))).toBe(true);
    await projection.close();
  });
});

describe("projection on a build thread (host's Bun, a real Worker over a SQLite store)", () => {
  const run = runInBun<Record<string, any>>(fileURLToPath(new URL("./testing/build-thread-scenarios.bun.ts", import.meta.url)), {});

  it("is built by the thread, with the answers of reading every session", () => {
    expect(run.built).toBe(true);
    expect(run.file).toBe(true);
    expect(run.holders).toBeGreaterThan(0);
    expect(run.tables).toBe(true);
    expect(run.same).toBe(true);
    expect(run.rare).toEqual({ read: 0, sessions: [] });
    expect(run.log).toEqual([]);
  });

  it("reads a marked session until the thread projected it again", () => {
    expect(run.marked).toEqual({ read: 1, sessions: ["ses_t004"] });
    expect(run.markedOther.read).toBe(1);
    expect(run.settled).toBe(true);
    expect(run.settledOther).toEqual({ read: 0, sessions: [] });
    // Projected again, it is ranked from the file: found, and never read whole.
    expect(run.settledFound).toEqual({ read: 0, sessions: ["ses_t004"] });
    expect(run.sameAfter).toBe(true);
  });

  it("closed, leaves no WAL behind", () => {
    expect(run.walLeft).toBe(false);
  });

  it("gives way while one of our tools runs on the host's thread: nothing projected until it ended", () => {
    expect(run.paceHeld).toBe(true);
    expect(run.paceBesideBuilt).toBe(true);
    expect(run.paceWhileBusy).toBe(0);
    expect(run.paceAfter).toBe(true);
  });

  it("never starves: a call that never ends gets the store built all the same, one slice per bounded hold", () => {
    expect(run.boundedBuilt).toBe(true);
    expect(run.boundedRunning).toBe(1);
    // Before the pass, before each of the 24 sessions, before the segment's write.
    expect(run.boundedHolds).toBeGreaterThanOrEqual(26);
  });
});
