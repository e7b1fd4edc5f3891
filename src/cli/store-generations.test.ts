// The command line on each store generation, run in the host's Bun (bun:sqlite) over stores from
// host/v2/testing/v2-store.ts, whose DDL cites OpenCode's source. An OpenCode 2 store's history is
// session_v2/session_message only; beside frozen 1.x tables, those only say what was never
// imported (kv['migration.v1-v2'], the importer in anomalyco/opencode v1-migration, copy id 59650811177).
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runInBun } from "../store/testing/run-in-bun.ts";

type Json = Record<string, any>;
interface Run {
  code: number;
  out: string[];
  err: string[];
}

const scenarios = fileURLToPath(new URL("./testing/store-scenarios.bun.ts", import.meta.url));
const json = (run: Run): Json => JSON.parse(run.out.join("\n")) as Json;
const check = (doctor: Run, name: string): Json | undefined => (json(doctor).checks as Json[]).find((entry) => entry.name === name);

describe.each(["opencode-2", "opencode-2-with-1x"] as const)("command line on an OpenCode 2 store (%s)", (shape) => {
  const runs = runInBun<Record<string, any>>(scenarios, shape);
  const ids = runs.ids as Record<string, string>;

  it("sessions lists the project's session_v2 rows, subagents with their parent, and nothing from the 1.x tables", () => {
    expect(runs.sessions.code).toBe(0);
    const sessions = json(runs.sessions).sessions as Json[];
    expect(sessions.map((session) => session.session_id).sort()).toEqual(["ses_v2child", "ses_v2main"]);
    expect(sessions.find((session) => session.session_id === "ses_v2child")).toMatchObject({ parent_id: "ses_v2main", turns: 1 });
    expect(sessions.find((session) => session.session_id === "ses_v2main")).toMatchObject({
      title: "Rate limiter",
      preview: "What limit does the rate limiter use?",
    });
  });

  it("search finds text and a v2 `shell` call in session_message, and never the frozen 1.x copy", () => {
    const messages = json(runs.search).messages as Json[];
    expect(messages.find((message) => message.message_id === ids.answer)?.hits[0]).toMatchObject({
      type: "text",
      snippets: [expect.stringContaining("120 requests per minute")],
    });
    expect(json(runs.toolSearch).messages[0]).toMatchObject({
      message_id: ids.answer,
      hits: [{ type: "tool", tool_name: "shell", part_id: expect.stringMatching(/^prt_[A-Za-z0-9_-]+$/) }],
    });
    expect(runs.frozen.code).toBe(1);
  });

  it("show prints a v2 message's sections and a session's turns", () => {
    expect(json(runs.showMessage)).toMatchObject({
      session_id: "ses_v2main",
      role: "assistant",
      agent: "build",
      sections: [
        { type: "text" },
        { type: "tool", tool: "shell", status: "completed", input: { command: "echo LIMITER_REDIS_URL" }, content: "LIMITER_REDIS_URL is not set" },
      ],
    });
    expect(json(runs.showSession).turns).toMatchObject([{ turn_number: 1, user: { message_id: ids.question }, assistant: { tool: { calls: ["1× shell"] } } }]);
  });

  it("doctor names the generation and the OpenCode that wrote it, and counts v2 rows", () => {
    expect(runs.doctor.code).toBe(0);
    expect(check(runs.doctor, "store")!.detail[0]).toMatch(/\(OpenCode 2 store, schema known, opened read-only\)$/);
    expect(check(runs.doctor, "written by")!.detail[0]).toMatch(/^OpenCode 2\.0\.31 /);
    expect(check(runs.doctor, "history")!.detail[0]).toMatch(/^2 sessions \(2 in .*\), 3 messages, \d+ KB on disk$/);
  });

  it(
    shape === "opencode-2"
      ? "doctor has nothing to say of 1.x tables when there are none"
      : "doctor says the 1.x tables are a frozen copy and how many 1.x sessions were never imported",
    () => {
      const legacy = check(runs.doctor, "1.x tables");
      if (shape === "opencode-2") expect(legacy).toBeUndefined();
      else {
        expect(legacy).toMatchObject({ status: "warn" });
        expect(legacy!.detail[0]).toContain("frozen copy");
        expect(legacy!.detail[0]).toContain('phase "completed"');
        expect(legacy!.detail[1]).toMatch(/^1 of the 2 1\.x sessions were never imported into OpenCode 2/);
      }
    },
  );
});

describe("command line on an OpenCode 1.x store", () => {
  const runs = runInBun<Record<string, any>>(scenarios, "opencode-1");

  it("reads the 1.x tables, and doctor names the generation", () => {
    expect((json(runs.sessions).sessions as Json[]).map((session) => session.session_id).sort()).toEqual(["ses_legacyonly", "ses_v2main"]);
    expect(runs.frozen.code).toBe(0);
    expect(check(runs.doctor, "store")!.detail[0]).toMatch(/\(OpenCode 1\.x store, schema known, opened read-only\)$/);
    expect(check(runs.doctor, "written by")!.detail[0]).toMatch(/^OpenCode 1\.18\.33 \(this plugin is tested with /);
    expect(check(runs.doctor, "history")!.detail[0]).toMatch(/^2 sessions \(2 in .*\), 2 messages, 2 parts, \d+ KB on disk$/);
    expect(check(runs.doctor, "1.x tables")).toBeUndefined();
  });
});
