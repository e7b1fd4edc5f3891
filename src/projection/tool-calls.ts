// The history tools' calls running on this thread, counted in memory another thread can read
// without a message: the projection's build thread gives way while one runs
// (projection/build-pace.ts). A SharedArrayBuffer, so the build thread sees a call start
// within its current slice, with no message to wait for behind its own work.

/** Slots of ToolCalls.counts (Int32). */
export const CALLS_RUNNING = 0;
/** How many times a call started or ended, or a host event came (build-thread.ts): a reader sees a change even if it began and ended between two looks. */
export const CALLS_CHANGED = 1;
/** The reader's own slot: how many times it gave way (a test's window on the other thread). */
export const CALLS_HELD = 2;

export class ToolCalls {
  readonly counts = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));

  /** Runs `work` as a tool call: counted running from its start until it settles. */
  during<T>(work: () => Promise<T>): Promise<T> {
    return this.counted(1, work);
  }

  /** Inside a call, a wait on someone else (the user answering a permission prompt): not counted as running meanwhile. */
  aside<T>(wait: () => Promise<T>): Promise<T> {
    return this.counted(-1, wait);
  }

  /** `work` with `running` moved by `delta` until it settles; each move is a change a reader sees. */
  private async counted<T>(delta: number, work: () => Promise<T>): Promise<T> {
    Atomics.add(this.counts, CALLS_RUNNING, delta);
    Atomics.add(this.counts, CALLS_CHANGED, 1);
    try {
      return await work();
    } finally {
      Atomics.sub(this.counts, CALLS_RUNNING, delta);
      Atomics.add(this.counts, CALLS_CHANGED, 1);
    }
  }

  running(): number {
    return Atomics.load(this.counts, CALLS_RUNNING);
  }

  /** How many times the reader gave way so far. */
  held(): number {
    return Atomics.load(this.counts, CALLS_HELD);
  }
}

/** The process's: every plugin instance's tools run on the host's one thread, so every build thread gives way to all of them. */
export const toolCalls = new ToolCalls();
