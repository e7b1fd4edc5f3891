// Tool answers are paid for in tokens: drop undefined, null, empty strings, empty arrays and
// empty objects before serializing.

function compact<T>(value: T): T {
  return prune(value) as T;
}

function prune(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(prune).filter((item) => item !== undefined);
  }
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, raw] of Object.entries(value)) {
      const item = prune(raw);
      if (item === undefined) continue;
      if (Array.isArray(item) && item.length === 0) continue;
      if (item !== null && typeof item === "object" && !Array.isArray(item) && Object.keys(item).length === 0) continue;
      out[key] = item;
    }
    return out;
  }
  if (value === null || value === "") return undefined;
  return value;
}

/** Compact, single-line JSON of an answer. */
export function toJson(value: unknown): string {
  return JSON.stringify(compact(value));
}

export function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

export function isoTime(epochMs: number | undefined): string | undefined {
  if (epochMs === undefined || !Number.isFinite(epochMs)) return undefined;
  const date = new Date(epochMs);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
