// The projection's passes on the build thread (build-worker.ts starts them there; build-thread.ts
// is the host's side). The host's events come in as messages; out go the status, the log lines,
// and which marked sessions are projected again, so the host's finder stops reading them.
// A session marked at mark M is settled when a pass read its change stamp after M arrived and
// the file holds it projected whole at that stamp: later changes move the stamp, which the
// host's finder checks itself.

import { toolVisibility, type ToolVisibility } from "../history/tool-visibility.ts";
import type { Log } from "../util/log.ts";
import type { StoreGeneration } from "../store/store-file.ts";
import { pauseIfDue } from "../util/scheduler.ts";
import { GiveWay, type PaceTiming } from "./build-pace.ts";
import type { ProjectionFeed } from "./feed.ts";
import type { openProjection } from "./projection-db.ts";
import { ProjectionBuilder } from "./builder.ts";
import type { ProjectionStatus } from "./reader.ts";
import type { SearchTuning } from "../search/projection-contract.ts";

/** The config of the moment, as far as the passes need it. */
export interface BuildSettings {
  enabled: boolean;
  showToolInput: readonly string[];
  showToolOutput: readonly string[];
  /** The host's name for that visibility (the file records which one it was built for). */
  visibilityKey: string;
}

/** What the build thread is started with (worker_threads' workerData): data only. */
export interface BuildStart {
  /** The store file the host's reader reads, and which OpenCode generation's tables it reads there. */
  store: string;
  generation: StoreGeneration;
  /** A session the host named (the passes' probe). */
  probe: string;
  /** The projection files' folder. */
  dir: string;
  intervalMs?: number;
  settings: BuildSettings;
  /** What sessions are counted with (the search's tuning, copied to the thread). */
  tuning: SearchTuning;
  /** The host's tool calls (ToolCalls.counts, shared memory): the passes give way while one runs. */
  toolCalls: Int32Array;
  /** How they give way (default build-pace.ts's PACE). */
  pace?: PaceTiming;
}

/** Host to thread. `dirty` carries [session, mark] pairs, marks increasing. */
export type ToBuild = { kind: "dirty"; marks: [string, number][] } | { kind: "settings"; settings: BuildSettings } | { kind: "close" };

/** Thread to host. */
export type FromBuild =
  | { kind: "status"; status: ProjectionStatus; builtFor: string }
  | { kind: "settled"; id: string; mark: number }
  | { kind: "log"; level: Parameters<Log>[0]; message: string }
  | { kind: "failed"; reason: string }
  | { kind: "closed" };

/** The slice of a message port used: worker_threads' parentPort, or a MessageChannel end in tests. */
export interface BuildPort {
  postMessage(message: FromBuild): void;
  on(event: "message", listener: (message: ToBuild) => void): unknown;
}

/** How often the status goes out (when it changed), and settled sessions with it. */
const REPORT_MS = 500;

/**
 * Runs the passes for `start` over `feed`, answering on `port` until told to close; `release` then
 * frees the store. `settled`: called when every session is current again after a pass that
 * projected some (as status reports see it, every REPORT_MS): the thread then idles.
 */
export function serveBuild(
  port: BuildPort,
  start: BuildStart,
  feed: ProjectionFeed,
  release: () => void,
  options: { open?: typeof openProjection; settled?: () => void } = {},
): ProjectionBuilder {
  const open = options.open;
  let settings = start.settings;
  let visibility: ToolVisibility = toolVisibility(settings.showToolInput, settings.showToolOutput);
  /** Marks arrived and not yet seen by a pass. */
  const marks = new Map<string, number>();
  /** Marks a pass saw, with the stamp it read after them: settled once the file holds the session at that stamp. */
  const seen = new Map<string, { mark: number; stamp: string }>();

  const settle = () => {
    for (const [id, entry] of seen) {
      if (projection.projectedAt(id) !== entry.stamp) continue;
      seen.delete(id);
      port.postMessage({ kind: "settled", id, mark: entry.mark });
    }
  };
  // A pass clears a session's flag and then reads its stamp: the stamp read is where marks are seen.
  const watched: ProjectionFeed = {
    ...feed,
    async stamp(id) {
      const stamp = await feed.stamp(id);
      settle();
      if (stamp === undefined) return stamp;
      const mark = marks.get(id);
      if (mark !== undefined) {
        marks.delete(id);
        seen.set(id, { mark, stamp });
      } else {
        // A pass after one that failed on it, or after it changed again: the stamp it is projected at now.
        const entry = seen.get(id);
        if (entry) entry.stamp = stamp;
      }
      return stamp;
    },
  };
  const projection = new ProjectionBuilder({
    feed: watched,
    enabled: () => settings.enabled,
    visibility: () => visibility,
    visibilityKey: () => settings.visibilityKey,
    tuning: start.tuning,
    // Nothing else runs on this thread: a turn per slice only lets the host's messages in.
    pause: pauseIfDue,
    giveWay: new GiveWay(start.toolCalls, start.pace).hold,
    log: (level, message) => port.postMessage({ kind: "log", level, message }),
    dir: start.dir,
    ...(start.intervalMs !== undefined ? { intervalMs: start.intervalMs } : {}),
    ...(open ? { open } : {}),
  });

  let reported = "";
  /** Whether a report saw a pass projecting (or more sessions projected) since every session was last current. */
  let built = false;
  let projected = 0;
  const report = () => {
    settle();
    const status = projection.status();
    if (status.state === "building" || status.projected !== projected) built = true;
    projected = status.projected;
    if (status.state === "current" && built) {
      built = false;
      options.settled?.();
    }
    const message: FromBuild = { kind: "status", status, builtFor: settings.visibilityKey };
    const text = JSON.stringify(message);
    if (text === reported) return;
    reported = text;
    port.postMessage(message);
  };
  const timer = setInterval(report, REPORT_MS);

  port.on("message", (message) => {
    switch (message.kind) {
      case "dirty":
        for (const [id, mark] of message.marks) {
          marks.set(id, mark);
          projection.markDirty(id);
        }
        return;
      case "settings":
        settings = message.settings;
        visibility = toolVisibility(settings.showToolInput, settings.showToolOutput);
        // Turned on again: the passes start again (a no-op while they run).
        projection.observe(start.probe);
        report();
        return;
      case "close":
        clearInterval(timer);
        projection.close();
        release();
        port.postMessage({ kind: "closed" });
        return;
    }
  });
  projection.observe(start.probe);
  return projection;
}
