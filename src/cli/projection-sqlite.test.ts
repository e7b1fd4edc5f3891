// The projection in its real SQLite file, in the host's Bun (Node 20 has no SQLite driver): built,
// the store changed under it, the file deleted and corrupted, doctor, reindex and the CLI's search. The answers with
// it are compared with the answers reading every session (the property test's queries).
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runInBun } from "../store/testing/run-in-bun.ts";

const scenario = fileURLToPath(new URL("./testing/projection-scenarios.bun.ts", import.meta.url));

describe("projection in SQLite (host's Bun)", () => {
  const run = runInBun<Record<string, any>>(scenario, {});

  it("is built in the cache folder and answers as reading every session does", () => {
    expect(run.built).toBe("current");
    expect(run.fileExists).toBe(true);
    expect(run.sameBuilt).toBe(true);
  });

  it("sees the store change under it: a new message found, a removed one gone", () => {
    expect(run.doomedBefore).toEqual(["ses_p007"]);
    expect(run.newFound).toEqual(["ses_p004"]);
    expect(run.doomedAfter).toEqual([]);
    expect(run.sameChanged).toBe(true);
  });

  it("projects the changed sessions again into new segments and merges segments as they pile up", () => {
    expect(run.afterPass).toBe("current");
    expect(run.sameAfterPass).toBe(true);
    // 23 sessions (one removed) in segments of a few: merged into fewer than one a write.
    expect(run.sessionRows).toBe(24);
    expect(run.segments).toBeGreaterThan(1);
    expect(run.segments).toBeLessThan(8);
  });

  it("is built again when deleted or corrupted, the corrupt file quarantined, answers unchanged", () => {
    expect(run.rebuiltAfterDelete).toBe("current");
    expect(run.fileBack).toBe(true);
    expect(run.sameDeleted).toBe(true);
    expect(run.rebuiltAfterCorrupt).toBe("current");
    expect(run.quarantined).toBe(1);
    expect(run.sameCorrupt).toBe(true);
    expect((run.log as string[]).some((line) => line.includes("corrupt"))).toBe(true);
  });

  it("is built again from a file of an older schema", () => {
    expect(run.rebuiltAfterSchema).toBe("current");
    expect(run.sameSchema).toBe(true);
    expect((run.log as string[]).some((line) => line.includes("rebuilt: schema 2"))).toBe(true);
  });

  it("doctor shows it and reindex rebuilds it", () => {
    const check = (JSON.parse(run.doctor.out.join("\n")).checks as Record<string, any>[]).find((entry) => entry.name === "projection");
    expect(check?.status).toBe("ok");
    expect(check?.detail[1]).toMatch(/^24 of 24 sessions projected as they are now \(100%\)/);
    expect(run.reindex.code).toBe(0);
    expect(JSON.parse(run.reindex.out.at(-1))).toMatchObject({ sessions: 24 });
  });

  it("the command line's global search reads only what the projection names, with the answer of reading every session, and builds none itself", () => {
    const { cliProjected, cliPlain } = run;
    expect(cliProjected.code).toBe(0);
    expect(JSON.parse(cliProjected.out.at(-1)).messages.map((m: Record<string, any>) => m.session_id)).toEqual(["ses_p004"]);
    expect(cliProjected.out).toEqual(cliPlain.out);
    expect(cliPlain.read).toBeGreaterThanOrEqual(20);
    expect(cliProjected.read).toBeLessThanOrEqual(2);
    expect(run.cliLeftNoFile).toBe(false);
  });
});
