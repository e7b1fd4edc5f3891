import { describe, expect, it } from "vitest";
import { checkpoint } from "./reader.ts";

describe("checkpoint (between pieces of a long read)", () => {
  it("asks for no await when no turn is due", () => {
    expect(checkpoint({ pause: () => undefined })).toBeUndefined();
    expect(checkpoint({})).toBeUndefined();
  });

  it("throws at once when the read was cancelled", () => {
    const controller = new AbortController();
    controller.abort(new Error("cancelled"));
    expect(() => checkpoint({ signal: controller.signal, pause: () => undefined })).toThrow("cancelled");
  });

  it("gives the turn to await, and rejects when the read was cancelled during it", async () => {
    const controller = new AbortController();
    let turn!: () => void;
    const due = checkpoint({ signal: controller.signal, pause: () => new Promise<void>((resolve) => (turn = resolve)) });
    expect(due).toBeInstanceOf(Promise);
    controller.abort(new Error("cancelled meanwhile"));
    turn();
    await expect(due).rejects.toThrow("cancelled meanwhile");
  });
});
