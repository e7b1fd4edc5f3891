// The projection's passes give way to the host's thread while it answers one of our tools: on a
// 2-core machine the build thread's slices (a 30 MB session read and counted again) took CPU the
// host's thread needed, and a warm search of that session took 92 ms with the projection
// building against 21 ms without it. Before a slice the passes ask `hold`: while a tool call runs
// (util/tool-calls.ts, counted in shared memory) or ended less than the grace ago, it waits; after
// maxHoldMs of continuous busy it lets one slice through anyway, so the projection never starves.
// A host event (build-thread.ts counts each as a change) holds it the same way: the host's thread
// works on the whole turn (the prompt, the model's steps, the reply), not only on our tool, and
// passes running then doubled the host's longest stall around a cold search (issue 40).
// The passes ask only where no SQLite transaction is open (builder.ts): a held pass holds no
// lock on the projection file and no read snapshot of the host's store.

import { CALLS_CHANGED, CALLS_HELD, CALLS_RUNNING } from "./tool-calls.ts";

export interface PaceTiming {
  /** Quiet after a call before the passes go on. */
  graceMs: number;
  /** Longest wait in one hold: then one slice runs whatever the host does. */
  maxHoldMs: number;
}

/**
 * 1 s of grace: once our tool returns, the host's thread still works on the call (writes the
 * result part, publishes its events to every plugin's hooks, ours included, and starts the
 * model's next step), and after a session's first search it builds that session's index at
 * background priority; with 100 ms the passes ran through that (480–1,230 ms of the build
 * thread's CPU in the 2–3 s after a cold search, bench:host on a loaded 2-core machine). An
 * agent's next call waits on the model (seconds), so the passes lose little. 2 s of hold: a
 * slice of about 12 ms every 2 s is under 1% of a core taken from a host kept busy for good.
 */
const PACE: PaceTiming = { graceMs: 1_000, maxHoldMs: 2_000 };

/** How often a held pass looks again (an await of a timer: its thread's messages still come in). */
const LOOK_MS = 20;

/** Reads the host's tool calls from `counts` (ToolCalls.counts, shared with the host's thread). */
export class GiveWay {
  private seen: number;
  private changedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly counts: Int32Array,
    private readonly timing: PaceTiming = PACE,
  ) {
    this.seen = Atomics.load(counts, CALLS_CHANGED);
  }

  /** Undefined when the host's thread is free; else a promise of its quiet (or of maxHoldMs). */
  readonly hold = (): Promise<void> | undefined => (this.busy() ? this.held() : undefined);

  /** A call runs, or one started or ended less than the grace before this thread saw it. */
  private busy(): boolean {
    const changed = Atomics.load(this.counts, CALLS_CHANGED);
    if (changed !== this.seen) {
      this.seen = changed;
      this.changedAt = performance.now();
    }
    return Atomics.load(this.counts, CALLS_RUNNING) > 0 || performance.now() - this.changedAt < this.timing.graceMs;
  }

  private async held(): Promise<void> {
    Atomics.add(this.counts, CALLS_HELD, 1);
    const since = performance.now();
    while (this.busy()) {
      const left = this.timing.maxHoldMs - (performance.now() - since);
      if (left <= 0) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(LOOK_MS, left));
        // On the host's thread (the fallback) a held pass must not keep the process alive.
        (timer as { unref?: () => void }).unref?.();
      });
    }
  }
}

type Pause = () => Promise<void> | undefined;

/** `pause`'s turns, each after the host's quiet when `giveWay` says it is busy: for work outside a transaction only. */
export function pacedPause(pause: Pause, giveWay: Pause | undefined): Pause {
  if (!giveWay) return pause;
  return () => {
    const turn = pause();
    if (!turn) return undefined;
    const held = giveWay();
    return held ? turn.then(() => held) : turn;
  };
}
