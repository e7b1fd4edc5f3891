// The process-wide cooperative scheduler for long work (cold scans, index builds, host reads).

// Long work (scans, builds) runs in slices of a few milliseconds and then yields. Every yielding
// task waits in one queue and only one task resumes per event-loop turn, so several concurrent
// scans and builds still block the loop for one slice at a time, not one slice each.
// Searches resume before background builds, and while any search is running background builds
// do not resume at all: a project search's time budget is spent on searching. The exception is an
// urgent build (a search waits on it): it takes turns with the other searches.
const waiting: Array<() => void> = [];
/** Background tasks; `urgent` ones (a search awaits them) run even while searches do. */
const background: Array<{ resume: () => void; urgent?: () => boolean }> = [];
let pumping = false;
let activeSearches = 0;
/** Start of the current synchronous stretch of search work (shared by all tasks). */
let stretchStart = performance.now();

function nextBackground(): number {
  if (background.length === 0) return -1;
  if (activeSearches === 0) return 0;
  return background.findIndex((task) => task.urgent?.() === true);
}

function runnable(): boolean {
  return waiting.length > 0 || nextBackground() >= 0;
}

function pump(): void {
  // Urgent tasks join the back of the search queue: round robin with the searches.
  if (activeSearches > 0) {
    for (let at = nextBackground(); at >= 0; at = nextBackground()) waiting.push(background.splice(at, 1)[0]!.resume);
  }
  let next = waiting.shift();
  if (!next && background.length > 0 && activeSearches === 0) next = background.shift()!.resume;
  if (runnable()) setImmediate(pump);
  else pumping = false;
  stretchStart = performance.now();
  next?.();
}

/** Makes sure parked tasks get their turns (after a background task became urgent, say). */
export function startPump(): void {
  if (!pumping && runnable()) {
    pumping = true;
    setImmediate(pump);
  }
}

/** Runs a search; background builds wait until no search is running. */
export async function asSearch<T>(work: () => Promise<T>): Promise<T> {
  activeSearches++;
  try {
    return await work();
  } finally {
    activeSearches--;
    startPump();
  }
}

/** Yields when the current stretch of work (any task's) has run for a slice. */
export async function maybeYield(priority: "search" | "build" = "search", urgent?: () => boolean): Promise<void> {
  if (performance.now() - stretchStart > SLICE_MS) await yieldToLoop(priority, urgent);
}

/** True when the current stretch has run for a slice (a cheap check before maybeYield). */
export function sliceSpent(): boolean {
  return performance.now() - stretchStart > SLICE_MS;
}

/** Gives the event loop a turn; resumes after other waiting tasks had theirs. */
export function yieldToLoop(priority: "search" | "build" = "search", urgent?: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (priority === "search") waiting.push(resolve);
    else background.push(urgent ? { resume: resolve, urgent } : { resume: resolve });
    startPump();
  });
}

/** For long reads: a turn of the event loop when the current slice is spent, else nothing to wait for. */
export function pauseIfDue(): Promise<void> | undefined {
  return sliceSpent() ? yieldToLoop("search") : undefined;
}

const SLICE_MS = 12;

export function now(): number {
  return performance.now();
}
