// Structural equality of mapped messages, so a refresh keeps unchanged message objects (and the
// search index keeps their documents).

import type { HistoryMessage } from "../history/types.ts";

export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  for (const key of keysA) {
    if (!sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

export function sameMessage(a: HistoryMessage, b: HistoryMessage): boolean {
  return sameValue(a, b);
}
