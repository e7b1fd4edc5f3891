// The store-wide watermark of both generations' readers, over stores shaped like the host's
// (v2/testing/v2-store.ts cites the source of each fact), run in the host's own Bun.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runInBun } from "./testing/run-in-bun.ts";

const scenarios = fileURLToPath(new URL("./v2/testing/watermark-scenarios.bun.ts", import.meta.url));
const run = (name: string) => runInBun<Record<string, any>>(scenarios, name);

/** Every plan line of a history table is a row id lookup or range; only the session table is scanned (counted). */
function cheap(plans: string[][], sessionTable: string): void {
  for (const plan of plans) {
    for (const line of plan) {
      if (line.startsWith("SCAN")) expect(line).toMatch(new RegExp(`^SCAN ${sessionTable} USING COVERING INDEX`));
      if (line.startsWith("SEARCH"))
        expect(line).toMatch(/INTEGER PRIMARY KEY|^SEARCH (event|message|part|session_message)$|USING COVERING INDEX sqlite_autoindex/);
    }
  }
}

describe("store watermark, OpenCode 1.x", () => {
  const result = run("v1");

  it("stays the same, naming nothing, while the store is unchanged", () => {
    expect(result.available).toBe(true);
    expect(result.unchanged).toEqual({ same: true, named: [] });
  });

  it("moves and names the session on an appended part, an updated message, a streamed part, an event, an import", () => {
    const { steps } = result;
    expect(steps.partAppended).toEqual({ moved: true, named: ["ses_l1"] });
    expect(steps.messageUpdated).toEqual({ moved: true, named: ["ses_l2"] });
    expect(steps.partStreamed).toEqual({ moved: true, named: ["ses_l1"] });
    expect(steps.eventAlone).toEqual({ moved: true, named: ["ses_l2"] });
    expect(steps.imported).toEqual({ moved: true, named: ["ses_l3"] });
  });

  it("does not see a row rewritten in place without an event (a repeated import)", () => {
    expect(result.steps.rewrittenWithoutEvent).toEqual({ moved: false, named: [] });
  });

  it("cannot say after a session was deleted, the newest row's id reused, or too much was written", () => {
    const { steps } = result;
    expect(steps.sessionDeleted).toEqual({ moved: true, named: null });
    expect(steps.newestRowReused).toEqual({ moved: true, named: null });
    expect(steps.tooMuchSince).toEqual({ moved: true, named: null });
    expect(steps.afterThat).toEqual({ moved: true, named: ["ses_l3"] });
  });

  it("takes no mark of another generation, nor text that is no mark", () => {
    expect(result.foreign).toBeNull();
    expect(result.garbage).toBeNull();
  });

  it("reads history tables by row id only", () => {
    expect(result.plans).toHaveLength(11);
    cheap(result.plans, "session");
  });
});

describe("store watermark, OpenCode 2", () => {
  const result = run("v2");

  it("stays the same while unchanged; moves and names the session on appended, streamed and reverted messages; cannot say after a deletion", () => {
    expect(result.unchanged).toEqual({ same: true, named: [] });
    expect(result.steps.messageAppended).toEqual({ moved: true, named: ["ses_s1"] });
    expect(result.steps.messageStreamed).toEqual({ moved: true, named: ["ses_s2"] });
    expect(result.steps.reverted).toEqual({ moved: true, named: ["ses_s2"] });
    expect(result.steps.answered).toEqual({ moved: true, named: ["ses_s1"] });
    expect(result.steps.sessionDeleted).toEqual({ moved: true, named: null });
  });

  it("reads history tables by row id only", () => {
    expect(result.plans).toHaveLength(8);
    cheap(result.plans, "session_v2");
  });

  it("has none without the event journal", () => {
    expect(run("v2WithoutEvents")).toEqual({ available: false });
  });
});
