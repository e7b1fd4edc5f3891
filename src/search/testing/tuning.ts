// Test-only: runs code under another tuning (src/search/tuning.ts) without editing it, for the
// ablation (eval/real/ablate.ts) and for tests of a rule switched off. Every object on the path
// to a changed value is replaced, never edited in place, so a parse cached under the old query
// tuning is not reused (text/query.ts).

import { TUNING, type SearchTuning } from "../tuning.ts";

type Patch<T> = { readonly [K in keyof T]?: T[K] extends readonly unknown[] ? T[K] : T[K] extends object ? Patch<T[K]> : T[K] };
export type TuningPatch = Patch<SearchTuning>;

function merged<T extends object>(base: T, patch: Patch<T>): T {
  const out = { ...base } as Record<string, unknown>;
  for (const [key, value] of Object.entries(patch)) {
    const current = out[key];
    out[key] = value !== null && typeof value === "object" && !Array.isArray(value) ? merged(current as object, value as Patch<object>) : value;
  }
  return out as T;
}

/** Puts `patch` over the tuning in effect; returns what puts the tuning back. */
export function setTuning(patch: TuningPatch): () => void {
  const saved = { ...TUNING };
  Object.assign(TUNING, merged(TUNING, patch));
  return () => {
    Object.assign(TUNING, saved);
  };
}
