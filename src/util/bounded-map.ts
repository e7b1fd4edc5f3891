// A Map that forgets its least recently used entries past a bound: a number of entries, or a
// total weight such as estimated bytes. One plugin instance serves every session for as long as
// the host runs, so no cache or per-session state may grow without one.

export interface BoundedMapOptions<V> {
  /** Largest total weight kept; the most recently used entry always stays, whatever its weight. */
  max: number;
  /** Weight of a value (default 1, so `max` counts entries); read again on every trim, so a value may grow. */
  weight?: (value: V) => number;
  /** Told of every value that leaves: evicted, replaced by another or deleted. */
  onRemove?: (value: V) => void;
}

export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();
  private max: number;
  private readonly weight: ((value: V) => number) | undefined;
  private readonly onRemove: (value: V) => void;

  constructor(bound: number | BoundedMapOptions<V>) {
    const options = typeof bound === "number" ? { max: bound } : bound;
    this.max = options.max;
    this.weight = options.weight;
    this.onRemove = options.onRemove ?? (() => {});
  }

  /** The value, which becomes the most recently used. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  /** The value, leaving the order as it is. */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** Sets the value as the most recently used, then trims. */
  set(key: K, value: V): void {
    const old = this.entries.get(key);
    this.entries.delete(key);
    this.entries.set(key, value);
    if (old !== undefined && old !== value) this.onRemove(old);
    this.trim();
  }

  delete(key: K): boolean {
    const value = this.entries.get(key);
    if (!this.entries.delete(key)) return false;
    if (value !== undefined) this.onRemove(value);
    return true;
  }

  setMax(max: number): void {
    this.max = max;
    this.trim();
  }

  /** Evicts the least recently used entries until the total weight fits (weights may have grown). */
  trim(): void {
    let total = this.totalWeight();
    for (const [key, value] of this.entries) {
      if (total <= this.max || this.entries.size <= 1) break;
      total -= this.weight ? this.weight(value) : 1;
      this.entries.delete(key);
      this.onRemove(value);
    }
  }

  totalWeight(): number {
    if (!this.weight) return this.entries.size;
    let total = 0;
    for (const value of this.entries.values()) total += this.weight(value);
    return total;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Keys, least recently used first. */
  keys(): K[] {
    return [...this.entries.keys()];
  }
}
