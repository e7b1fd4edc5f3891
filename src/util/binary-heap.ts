// A binary min-heap: the item that sorts first under `compare` is taken in O(log n), where a scan
// for it costs O(n) per step (ranking hundreds of sessions a candidate at a time).

export class BinaryHeap<T> {
  private readonly items: T[] = [];

  /** `compare(a, b) < 0`: `a` comes out before `b`. */
  constructor(private readonly compare: (a: T, b: T) => number) {}

  get size(): number {
    return this.items.length;
  }

  /** The item that comes out next, left in the heap. */
  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const items = this.items;
    let at = items.length;
    items.push(item);
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (this.compare(item, items[parent]!) >= 0) break;
      items[at] = items[parent]!;
      at = parent;
    }
    items[at] = item;
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    const n = items.length;
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= n) break;
      if (child + 1 < n && this.compare(items[child + 1]!, items[child]!) < 0) child++;
      if (this.compare(items[child]!, last) >= 0) break;
      items[at] = items[child]!;
      at = child;
    }
    items[at] = last;
    return top;
  }
}
