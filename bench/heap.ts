// Heap measurement that means the same in Bun and Node.

const jsc = (globalThis as { Bun?: unknown }).Bun ? ((await import("bun:jsc" as string)) as { heapStats(): { heapSize: number } }) : undefined;

/**
 * Bytes held: in Bun, JSC's heap size, which includes the "extra memory" of typed arrays and
 * string buffers; in Node, the V8 heap plus external memory (where ArrayBuffers live).
 */
export function heapBytes(): number {
  if (jsc) return jsc.heapStats().heapSize;
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

export function gc(): void {
  const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;
  if (bun) bun.gc(true);
  else (globalThis as { gc?: () => void }).gc?.();
}

/** Heap in MB after collections with event-loop turns between: a conservative collector (Bun's)
 * keeps what a stale stack slot still points at until the stack has moved on. */
export async function heapMb(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  gc();
  return heapBytes() / 1e6;
}
