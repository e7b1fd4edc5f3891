// Least-recently-used map bounded by the estimated bytes of its values. Sizes may grow after
// insertion (an index being built), so the bound is enforced whenever asked and on every set.

export interface Sized {
  bytes(): number;
  /** Called when evicted: stop work, drop memory. */
  dispose(): void;
}

export class ByteLru<V extends Sized> {
  private readonly map = new Map<string, V>();

  constructor(private maxBytes: number) {}

  get(key: string): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    const old = this.map.get(key);
    if (old !== undefined && old !== value) old.dispose();
    this.map.delete(key);
    this.map.set(key, value);
    this.enforce();
  }

  delete(key: string): void {
    const value = this.map.get(key);
    if (value === undefined) return;
    this.map.delete(key);
    value.dispose();
  }

  setMaxBytes(maxBytes: number): void {
    this.maxBytes = maxBytes;
    this.enforce();
  }

  totalBytes(): number {
    let total = 0;
    for (const value of this.map.values()) total += value.bytes();
    return total;
  }

  /** Evicts least recently used values until the total fits; the most recent one always stays. */
  enforce(): void {
    let total = this.totalBytes();
    for (const [key, value] of this.map) {
      if (total <= this.maxBytes || this.map.size <= 1) break;
      total -= value.bytes();
      this.map.delete(key);
      value.dispose();
    }
  }

  keys(): string[] {
    return [...this.map.keys()];
  }

  get size(): number {
    return this.map.size;
  }
}
