// Keeps one session's index in step with its messages: a sliced build that yields to the event
// loop every few milliseconds, then incremental updates (new, changed, removed messages only).
// One loop per session, so concurrent searches share one build. First builds of different
// sessions run one at a time (BuildQueue) so a project-wide search does not start 200 at once.

import type { HistoryMessage } from "../../history/types.ts";
import { messageTextSize } from "../text/documents.ts";
import { maybeYield, now, sliceSpent, startPump, yieldToLoop } from "../../util/scheduler.ts";
import type { ToolVisibility } from "../../history/tool-visibility.ts";
import type { SearchTuning } from "../tuning.ts";
import { SessionIndex, type MessageDiff } from "./session-index.ts";

/** Rebuild from scratch when more than this share of the indexed documents is dead. */
const MAX_DEAD_RATIO = 0.5;
/** Up to this much new text (code units), an update of a built index is applied synchronously. */
const SYNC_UPDATE_CHARS = 32 * 1024;

export class BuildQueue {
  private tail: Promise<void> = Promise.resolve();

  run(job: () => Promise<void>): Promise<void> {
    const next = this.tail.then(job, job);
    this.tail = next.catch(() => {});
    return next;
  }
}

export interface BuildStats {
  /** Longest synchronous stretch of the last build/update (ms). */
  longestSliceMs: number;
}

/** One session's index (a SessionIndex, made when first needed) and the build that keeps it current. */
export class IndexBuilder {
  /** Made when first needed: a project search touches hundreds of sessions it never builds. */
  private made: SessionIndex | undefined;
  /** True once the index holds every message it was last pointed at. */
  built = false;
  private target: readonly HistoryMessage[] = [];
  private running: Promise<void> | undefined;
  private queued = false;
  private disposed = false;
  private waiters = 0;
  /** True while this session's build has its turn in the queue (its loop runs). */
  private started = false;
  private readonly urgent = (): boolean => this.waiters > 0;
  readonly stats: BuildStats = { longestSliceMs: 0 };

  constructor(
    private readonly visibility: ToolVisibility,
    private readonly tuning: SearchTuning,
    private readonly queue: BuildQueue,
  ) {}

  get index(): SessionIndex {
    return (this.made ??= new SessionIndex(this.visibility, this.tuning));
  }

  /**
   * Points the index at the session's current messages and starts (or continues) bringing it up
   * to date. Returns how much text (code units) is still to index: Infinity while nothing is
   * indexed yet (its first build is queued), which no caller waits for.
   */
  update(messages: readonly HistoryMessage[]): number {
    this.target = messages;
    // A project search passes hundreds of sessions never built on each search: their messages
    // are not walked to size a build that nothing waits on.
    if (!this.made) {
      if (messages.length === 0) return 0;
      this.start();
      return Infinity;
    }
    const diff: MessageDiff = this.made.diff(messages);
    let pending = 0;
    for (const message of diff.added) pending += messageTextSize(message);
    if (diff.added.length === 0 && diff.removed.length === 0) return 0;
    // A built index a turn or two behind (the usual case) catches up right here: a few
    // milliseconds of work at most, and the search needs no scheduler turns to wait for it.
    if (this.built && !this.running && pending <= SYNC_UPDATE_CHARS && this.index.deadRatio <= MAX_DEAD_RATIO / 2) {
      for (const id of diff.removed) this.index.removeMessage(id);
      for (const message of diff.added) this.index.addMessage(message);
      this.index.diff(messages); // records the list the index is now in step with
      // The counts of what was added are grouped in the background once there are many.
      if (this.index.groupDue) this.start();
      return 0;
    }
    this.start();
    return pending;
  }

  /** Starts the build loop unless it runs: at once when built, else queued behind other first builds. */
  private start(): void {
    if (this.running) return;
    if (this.built) this.running = this.loop().finally(() => (this.running = undefined));
    else if (!this.queued) {
      this.queued = true;
      this.running = this.queue
        .run(() => this.loop())
        .finally(() => {
          this.running = undefined;
          this.queued = false;
        });
    }
  }

  /** Resolves when the index has caught up with the last update(). */
  async current(): Promise<void> {
    // A search waits on this build: it runs even while searches hold background builds back.
    this.waiters++;
    startPump();
    try {
      while (this.running) await this.running;
    } finally {
      this.waiters--;
    }
  }

  /**
   * True while this session's build has its turn (not queued behind other sessions' first builds):
   * waiting for it costs this build alone.
   */
  get underWay(): boolean {
    return this.started;
  }

  private async loop(): Promise<void> {
    this.started = true;
    try {
      await this.build();
    } finally {
      this.started = false;
    }
  }

  private async build(): Promise<void> {
    // Start on a turn of our own: the update() that started us is inside a search.
    await yieldToLoop("build", this.urgent);
    let sliceStart = now();
    const pause = async (): Promise<void> => {
      const spent = now() - sliceStart;
      if (spent > this.stats.longestSliceMs) this.stats.longestSliceMs = spent;
      await maybeYield("build", this.urgent);
      sliceStart = now();
    };
    while (!this.disposed) {
      if (this.index.deadRatio > MAX_DEAD_RATIO) {
        this.made = new SessionIndex(this.visibility, this.tuning);
        this.built = false;
      }
      const diff = this.index.diff(this.target);
      if (diff.added.length === 0 && diff.removed.length === 0) {
        if (!this.index.groupDue) {
          this.built = true;
          return;
        }
        // Group the counts by term (all of a first build's), in pieces, then look again for
        // messages that came meanwhile.
        for (const _ of this.index.groupSteps()) {
          if (this.disposed) return;
          if (sliceSpent()) await pause();
        }
        continue;
      }
      for (const id of diff.removed) this.index.removeMessage(id);
      for (const message of diff.added) {
        for (const _ of this.index.addMessageSteps(message)) {
          if (this.disposed) return;
          if (sliceSpent()) await pause();
        }
      }
    }
  }

  bytes(): number {
    return this.made ? this.made.bytes() : 0;
  }

  dispose(): void {
    this.disposed = true;
    this.made = undefined;
    this.built = false;
  }
}
