import { describe, expect, it } from "vitest";
import { CALLS_CHANGED, ToolCalls } from "./tool-calls.ts";

describe("ToolCalls", () => {
  it("counts calls running, overlapping ones too, and every start and end, failures included", async () => {
    const calls = new ToolCalls();
    let endFirst = () => {};
    const first = calls.during(() => new Promise<void>((resolve) => (endFirst = resolve)));
    const second = calls.during(async () => {
      expect(calls.running()).toBe(2);
      throw new Error("failed");
    });
    await expect(second).rejects.toThrow("failed");
    expect(calls.running()).toBe(1);
    endFirst();
    await first;
    expect(calls.running()).toBe(0);
    expect(Atomics.load(calls.counts, CALLS_CHANGED)).toBe(4);
  });

  it("lives in shared memory: another thread reads the same counts", () => {
    expect(new ToolCalls().counts.buffer).toBeInstanceOf(SharedArrayBuffer);
  });
});
