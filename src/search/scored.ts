// The unit every scorer (cold scan, index, literal/regex) hands to ranking: one scored chunk.

import type { HistoryMessage } from "../history/types.ts";
import type { HitType } from "./documents.ts";

export interface ScoredDoc {
  message: HistoryMessage;
  partId: string;
  type: HitType;
  tool?: string;
  /** Chunk range in the part's searchable text. */
  start: number;
  end: number;
  score: number;
  /** The chunk's text when the scorer already has it (re-read from the message otherwise). */
  text?: string;
}

/** Which documents a search may return (filters and the caller's visible window). */
export type DocFilter = (message: HistoryMessage, type: HitType, tool: string | undefined) => boolean;

// Long work (scans, builds) runs in slices of a few milliseconds and then yields. Every yielding
// task waits in one queue and only one task resumes per event-loop turn, so several concurrent
// scans and builds still block the loop for one slice at a time, not one slice each.
// Searches resume before background builds: a build only gets a turn when no search waits.
const waiting: Array<() => void> = [];
const background: Array<() => void> = [];
let pumping = false;
/** Start of the current synchronous stretch of search work (shared by all tasks). */
let stretchStart = performance.now();

function pump(): void {
  const next = waiting.shift() ?? background.shift();
  if (waiting.length > 0 || background.length > 0) setImmediate(pump);
  else pumping = false;
  stretchStart = performance.now();
  next?.();
}

/** Yields when the current stretch of work (any task's) has run for a slice. */
export async function maybeYield(priority: "search" | "build" = "search"): Promise<void> {
  if (performance.now() - stretchStart > SLICE_MS) await yieldToLoop(priority);
}

/** True when the current stretch has run for a slice (a cheap check before maybeYield). */
export function sliceSpent(): boolean {
  return performance.now() - stretchStart > SLICE_MS;
}

/** Gives the event loop a turn; resumes after other waiting tasks had theirs. */
export function yieldToLoop(priority: "search" | "build" = "search"): Promise<void> {
  return new Promise((resolve) => {
    (priority === "search" ? waiting : background).push(resolve);
    if (!pumping) {
      pumping = true;
      setImmediate(pump);
    }
  });
}

export const SLICE_MS = 12;

export function now(): number {
  return performance.now();
}
