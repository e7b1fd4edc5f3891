// Test-only: another tuning than DEFAULT_TUNING (src/search/tuning.ts), for the ablation
// (eval/real/ablate.ts), the sweep (eval/real/sweep.ts) and tests of a rule switched off. The
// result is a new object, passed to createSearchService or to the function under test.

import { DEFAULT_TUNING, type SearchTuning } from "../tuning.ts";

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

/** `base` with `patch` put over it, as a new object (`base` is left as it is). */
export function tuningWith(patch: TuningPatch, base: SearchTuning = DEFAULT_TUNING): SearchTuning {
  return merged(base, patch);
}
