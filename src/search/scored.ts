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

/** Gives the event loop a turn: long work runs in slices of a few milliseconds. */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export const SLICE_MS = 12;

export function now(): number {
  return performance.now();
}
