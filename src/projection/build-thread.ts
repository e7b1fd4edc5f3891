// The plugin's projection: its passes run on a build thread (a worker_threads Worker, in Bun as in
// Node), and the host's thread only answers searches from the file. On the host's thread the
// passes starved the host: it needs many event-loop turns per request and got one per slice of
// background work (measured on 1.18.33: every tool call about 17 s while a heavy store was built).
// Here a ProjectionReader reads the file the thread writes, its session rows
// read again when the thread reports progress; a session a host event marked is read by every
// search until the thread reports it projected again (build-serve.ts). The passes give way while
// one of our tools runs on the host's thread, and after each host event (build-pace.ts). A thread
// that cannot start, or dies, is logged once and the projection is unavailable from then on
// (status says why), as with projection.enable false: passes on the host's thread made every
// tool call wait (above).

import { Worker } from "node:worker_threads";
import type { SessionInfo } from "../history/types.ts";
import type { CandidateFinder, Narrowed, NearestTerm, ProjectedSummary, QueryTerm } from "../search/projection-contract.ts";
import type { StoreGeneration } from "../store/store-file.ts";
import { CALLS_CHANGED, type ToolCalls, toolCalls } from "./tool-calls.ts";
import type { PaceTiming } from "./build-pace.ts";
import type { BuildSettings, BuildStart, FromBuild, ToBuild } from "./build-serve.ts";
import { cacheDir } from "./projection-db.ts";
import type { ProjectionBuilderOptions } from "./builder.ts";
import { ProjectionReader, type ProjectionReaderOptions, type ProjectionStatus } from "./reader.ts";

/** What the plugin holds of the store's projection, wherever its passes run. */
export type Projection = CandidateFinder & Pick<ProjectionReader, "status" | "observe" | "markDirty" | "forget"> & { close(): Promise<void> };

/** The slice of worker_threads' Worker used (tests give an in-process stand-in). */
export interface BuildThread {
  postMessage(message: ToBuild): void;
  on(event: "message", listener: (message: FromBuild) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  on(event: "exit", listener: (code: number) => void): unknown;
  terminate(): Promise<unknown>;
}

export interface ThreadedProjectionOptions extends ProjectionReaderOptions, Pick<ProjectionBuilderOptions, "intervalMs"> {
  /** Which OpenCode generation's tables the host's reader reads: the thread reads the same. */
  generation: StoreGeneration;
  /** The tool visibility's selectors of the moment (show_tool_input, show_tool_output): the thread compiles its own. */
  showTools(): { input: readonly string[]; output: readonly string[] };
  /** Starts the build thread (default: build-worker's module in a Worker). */
  startThread?: (start: BuildStart) => BuildThread;
  /**
   * The config of the moment, by identity: the settings are read and compared again only when it
   * is another object (watchedConfig gives a new one per reload). Without it, on every host event.
   */
  config?: () => object;
  /** The tool calls the passes give way to (default: the process's, util/tool-calls.ts). */
  toolCalls?: ToolCalls;
  /** How they give way (default build-pace.ts's PACE). */
  pace?: PaceTiming;
}

/** Host events are handed to the thread at most this often, batched (a streamed reply marks its session per chunk). */
const MARKS_BATCH_MS = 200;
/** How long a closing thread gets to end its pass and close the file before it is ended. */
const CLOSE_WAIT_MS = 3_000;

function startWorker(start: BuildStart): BuildThread {
  // The module beside this one, in the form this one was loaded in: dist/*.js, or src/*.ts in Bun.
  const extension = import.meta.url.endsWith(".ts") ? "ts" : "js";
  const worker = new Worker(new URL(`./build-worker.${extension}`, import.meta.url), { workerData: start });
  // A building thread must not keep the host (or a test run) alive.
  worker.unref();
  return worker;
}

export class ThreadedProjection implements Projection {
  /** Reads the file the thread writes; runs no passes. */
  private readonly finder: ProjectionReader;
  /** Why there is no projection (no thread, no store file), once that is known. */
  private unavailable: string | undefined;
  private thread: BuildThread | undefined;
  private starting: Promise<void> | undefined;
  private probe: string | undefined;
  private closed = false;
  /** Sessions marked by host events, by their latest mark, until the thread settles that mark. */
  private readonly dirty = new Map<string, number>();
  private lastMark = 0;
  /** Marks not yet handed to the running thread, the latest per session (before it runs, `dirty` is handed over whole). */
  private readonly unsent = new Map<string, number>();
  private sendTimer: ReturnType<typeof setTimeout> | undefined;
  private sentSettings = "";
  /** The config object `sentSettings` was read from (ThreadedProjectionOptions.config). */
  private syncedFor: object | undefined;
  private threadStatus: ProjectionStatus = { state: "waiting", projected: 0, total: 0 };
  /** The visibility the thread's file is built for. */
  private builtFor: string | undefined;
  /** The thread reported progress since the finder last read the file. */
  private stale = false;
  private onClosed: (() => void) | undefined;

  constructor(private readonly options: ThreadedProjectionOptions) {
    this.finder = new ProjectionReader(options);
  }

  status(): ProjectionStatus {
    this.sync();
    const status: ProjectionStatus =
      this.unavailable === undefined ? { ...this.threadStatus } : { state: "unavailable", reason: this.unavailable, projected: 0, total: 0 };
    if (!this.options.enabled()) status.state = "off";
    return status;
  }

  observe(sessionId: string): void {
    this.sync();
    if (this.closed || sessionId === "" || !this.options.enabled()) return;
    this.probe ??= sessionId;
    this.starting ??= this.start();
  }

  markDirty(sessionId: string): void {
    // A host event: the host's thread is at work on a turn. The passes give way for the grace after
    // it, as after a call's start or end (build-pace.ts): a change seen like theirs.
    Atomics.add(this.calls().counts, CALLS_CHANGED, 1);
    const mark = ++this.lastMark;
    this.dirty.set(sessionId, mark);
    if (this.thread) this.unsent.set(sessionId, mark);
    if (this.thread && !this.sendTimer) {
      this.sendTimer = setTimeout(() => this.sendMarks(), MARKS_BATCH_MS);
      (this.sendTimer as { unref?: () => void }).unref?.();
    }
    this.observe(sessionId);
  }

  forget(sessionId: string): void {
    this.markDirty(sessionId);
  }

  async narrow(scope: readonly SessionInfo[], terms: readonly QueryTerm[], mustRead: ReadonlySet<string>): Promise<Narrowed | undefined> {
    for (const id of mustRead) this.observe(id);
    const probe = this.probe;
    if (probe === undefined || this.unavailable !== undefined || this.builtFor !== this.options.visibilityKey()) return undefined;
    if (this.stale) {
      this.stale = false;
      try {
        await this.finder.reread(probe);
      } catch (error) {
        this.options.log("warn", `projection could not be read: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      }
    }
    const must = this.dirty.size === 0 ? mustRead : new Set([...mustRead, ...this.dirty.keys()]);
    return this.finder.narrow(scope, terms, must);
  }

  nearest(words: readonly string[], sessionIds: readonly string[]): Promise<Map<string, NearestTerm[]>> {
    return this.finder.nearest(words, sessionIds);
  }

  summary(sessionId: string, updated: number | undefined): ProjectedSummary | undefined {
    return this.dirty.has(sessionId) || this.unavailable !== undefined ? undefined : this.finder.summary(sessionId, updated);
  }

  /** Ends the passes: the thread closes the file (its log written back) before it is ended. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.sendTimer);
    this.finder.close();
    const thread = this.thread;
    this.thread = undefined;
    if (!thread) return;
    await new Promise<void>((resolve) => {
      this.onClosed = resolve;
      const timer = setTimeout(resolve, CLOSE_WAIT_MS);
      (timer as { unref?: () => void }).unref?.();
      thread.postMessage({ kind: "close" });
    });
    await thread.terminate().catch(() => undefined);
  }

  private settings(): BuildSettings {
    const tools = this.options.showTools();
    return { enabled: this.options.enabled(), showToolInput: tools.input, showToolOutput: tools.output, visibilityKey: this.options.visibilityKey() };
  }

  /** Hands the config of the moment to the thread when it changed (per host event: the same config object is not read again). */
  private sync(): void {
    const config = this.options.config?.();
    if (config !== undefined && config === this.syncedFor) return;
    this.syncedFor = config;
    const settings = this.settings();
    const text = JSON.stringify(settings);
    if (text === this.sentSettings) return;
    this.sentSettings = text;
    this.thread?.postMessage({ kind: "settings", settings });
  }

  private sendMarks(): void {
    this.sendTimer = undefined;
    if (!this.thread || this.unsent.size === 0) return;
    this.thread.postMessage({ kind: "dirty", marks: [...this.unsent] });
    this.unsent.clear();
  }

  private async start(): Promise<void> {
    const probe = this.probe!;
    const store = await this.options.feed.storePath(probe).catch(() => undefined);
    if (this.closed) return;
    if (!store) return this.without("the host's store cannot be read directly (store.sqlite_fast_path off, or no SQLite driver)");
    this.syncedFor = this.options.config?.();
    const settings = this.settings();
    this.sentSettings = JSON.stringify(settings);
    const start: BuildStart = {
      store,
      generation: this.options.generation,
      probe,
      dir: this.options.dir ?? cacheDir(),
      settings,
      tuning: this.options.tuning,
      toolCalls: this.calls().counts,
    };
    if (this.options.intervalMs !== undefined) start.intervalMs = this.options.intervalMs;
    if (this.options.pace) start.pace = this.options.pace;
    try {
      const thread = (this.options.startThread ?? startWorker)(start);
      this.thread = thread;
      thread.on("message", (message) => this.received(thread, message));
      thread.on("error", (error) => this.lost(thread, `failed (${error.message})`));
      thread.on("exit", (code) => this.lost(thread, `ended (exit code ${code})`));
      // Marks made before it started.
      for (const [id, mark] of this.dirty) this.unsent.set(id, mark);
      this.sendMarks();
    } catch (error) {
      this.lost(undefined, `could not start (${error instanceof Error ? error.message : String(error)})`);
    }
  }

  private received(thread: BuildThread, message: FromBuild): void {
    if (thread !== this.thread && message.kind !== "closed") return;
    switch (message.kind) {
      case "status":
        this.threadStatus = message.status;
        this.builtFor = message.builtFor;
        this.stale = true;
        return;
      case "settled":
        if ((this.dirty.get(message.id) ?? Number.POSITIVE_INFINITY) <= message.mark) this.dirty.delete(message.id);
        this.stale = true;
        return;
      case "log":
        this.options.log(message.level, message.message);
        return;
      case "failed":
        this.lost(thread, `could not open the store (${message.reason})`);
        return;
      case "closed":
        this.onClosed?.();
        return;
    }
  }

  /** The thread failed or ended unasked: logged once, and there is no projection from now on. */
  private lost(thread: BuildThread | undefined, why: string): void {
    if (this.closed || this.unavailable !== undefined || thread !== this.thread) return;
    this.options.log("warn", `projection build thread ${why}; the projection is unavailable and many-session searches read every session`);
    this.thread = undefined;
    void thread?.terminate().catch(() => undefined);
    this.without(`the build thread ${why}`);
  }

  private without(reason: string): void {
    this.unavailable = reason;
    clearTimeout(this.sendTimer);
    this.finder.close();
  }

  private calls(): ToolCalls {
    return this.options.toolCalls ?? toolCalls;
  }
}
