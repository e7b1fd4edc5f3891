// GiveWay over the host's tool calls, here on one thread (the counts are the same shared memory
// the build thread reads): held while a call runs and for the grace after it, never past the
// bound; pacedPause gives way only when a turn is due.
import { describe, expect, it } from "vitest";
import { ToolCalls } from "./tool-calls.ts";
import { GiveWay, pacedPause } from "./build-pace.ts";

/** A tool call that runs until `end` is called. */
function openCall(calls: ToolCalls): { end: () => void; done: Promise<void> } {
  let end = () => {};
  const done = calls.during(() => new Promise<void>((resolve) => (end = resolve)));
  return { end, done };
}

/** Whether `promise` has settled after a few timer turns. */
async function settledSoon(promise: Promise<unknown>, turns = 10): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  for (let turn = 0; turn < turns && !settled; turn++) await new Promise((resolve) => setTimeout(resolve, 10));
  return settled;
}

describe("GiveWay", () => {
  it("holds nothing while no tool call runs, nor for one that ended before it started looking", async () => {
    const calls = new ToolCalls();
    await calls.during(async () => undefined);
    const giveWay = new GiveWay(calls.counts, { graceMs: 60_000, maxHoldMs: 60_000 });
    expect(giveWay.hold()).toBeUndefined();
    expect(calls.held()).toBe(0);
  });

  it("holds while a call runs and until the grace after it has passed", async () => {
    const calls = new ToolCalls();
    const giveWay = new GiveWay(calls.counts, { graceMs: 50, maxHoldMs: 60_000 });
    const call = openCall(calls);
    const held = giveWay.hold();
    expect(held).toBeInstanceOf(Promise);
    expect(calls.held()).toBe(1);
    expect(await settledSoon(held!)).toBe(false);
    call.end();
    await call.done;
    await held;
    expect(giveWay.hold()).toBeUndefined();
  });

  it("sees a call that started and ended between two looks: held for the grace", async () => {
    const calls = new ToolCalls();
    const giveWay = new GiveWay(calls.counts, { graceMs: 60_000, maxHoldMs: 60_000 });
    expect(giveWay.hold()).toBeUndefined();
    await calls.during(async () => undefined);
    expect(giveWay.hold()).toBeInstanceOf(Promise);
  });

  it("never holds past the bound though the call never ends, and holds again at the next look", async () => {
    const calls = new ToolCalls();
    const giveWay = new GiveWay(calls.counts, { graceMs: 50, maxHoldMs: 30 });
    const call = openCall(calls);
    await giveWay.hold();
    expect(calls.running()).toBe(1);
    const again = giveWay.hold();
    expect(again).toBeInstanceOf(Promise);
    await again;
    expect(calls.held()).toBe(2);
    call.end();
    await call.done;
  });

  it("a wait aside inside a call (a permission prompt) is not a call running", async () => {
    const calls = new ToolCalls();
    const giveWay = new GiveWay(calls.counts, { graceMs: 0, maxHoldMs: 60_000 });
    let answer = () => {};
    const call = calls.during(() => calls.aside(() => new Promise<void>((resolve) => (answer = resolve))));
    expect(calls.running()).toBe(0);
    expect(giveWay.hold()).toBeUndefined();
    answer();
    await call;
    expect(calls.running()).toBe(0);
  });
});

describe("pacedPause", () => {
  it("gives way only when a turn is due, and after the turn", async () => {
    const calls = new ToolCalls();
    const giveWay = new GiveWay(calls.counts, { graceMs: 50, maxHoldMs: 60_000 });
    const call = openCall(calls);
    let due = false;
    const pause = pacedPause(() => (due ? Promise.resolve() : undefined), giveWay.hold);
    expect(pause()).toBeUndefined();
    expect(calls.held()).toBe(0);
    due = true;
    const turn = pause()!;
    expect(calls.held()).toBe(1);
    expect(await settledSoon(turn)).toBe(false);
    call.end();
    await call.done;
    await turn;
  });

  it("is the pause itself when nothing gives way", () => {
    const pause = () => undefined;
    expect(pacedPause(pause, undefined)).toBe(pause);
  });
});
