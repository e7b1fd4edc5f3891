import { describe, expect, it } from "vitest";
import { BoundedMap } from "./bounded-map.ts";

describe("BoundedMap", () => {
  it("keeps the most recently used entries up to a count", () => {
    const map = new BoundedMap<string, number>(2);
    map.set("a", 1);
    map.set("b", 2);
    expect(map.get("a")).toBe(1); // a is now the most recent
    map.set("c", 3);
    expect(map.keys()).toEqual(["a", "c"]);
    expect(map.peek("a")).toBe(1); // peek leaves the order
    map.set("d", 4);
    expect(map.keys()).toEqual(["c", "d"]);
    expect(map.size).toBe(2);
    expect(map.totalWeight()).toBe(2);
  });

  it("bounds a total weight read again on every trim, tells of every removal and keeps the newest entry", () => {
    const removed: string[] = [];
    const weights = new Map([
      ["a", 4],
      ["b", 4],
      ["c", 4],
    ]);
    const map = new BoundedMap<string, string>({ max: 10, weight: (v) => weights.get(v)!, onRemove: (v) => removed.push(v) });
    map.set("a", "a");
    map.set("b", "b");
    expect(map.keys()).toEqual(["a", "b"]);
    weights.set("b", 8); // b grew after it was stored
    map.trim();
    expect(map.keys()).toEqual(["b"]);
    expect(removed).toEqual(["a"]);
    weights.set("c", 50);
    map.set("c", "c"); // heavier than the bound alone: still kept, as the newest
    expect(map.keys()).toEqual(["c"]);
    expect(removed).toEqual(["a", "b"]);
    map.set("c", "a"); // replaced
    expect(removed).toEqual(["a", "b", "c"]);
    expect(map.delete("c")).toBe(true);
    expect(map.delete("c")).toBe(false);
    expect(removed).toEqual(["a", "b", "c", "a"]);
    map.set("x", "a");
    map.set("y", "b");
    map.setMax(4);
    expect(map.keys()).toEqual(["y"]);
  });
});
