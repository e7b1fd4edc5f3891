// Typed reads of a host's JSON fields for the mappers: a field of the wrong type reads as absent.

export type Json = Record<string, unknown>;

export function object(value: unknown): Json | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;
}

/** JSON text that parses as an object; anything else reads as absent. */
export function parseObject(text: string): Json | undefined {
  try {
    return object(JSON.parse(text));
  } catch {
    return undefined;
  }
}

export function string(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function number(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
