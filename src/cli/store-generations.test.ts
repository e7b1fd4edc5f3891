// The command line on each store generation, run in the host's Bun (bun:sqlite) over stores from
// store/v2/testing/v2-store.ts, whose DDL cites OpenCode's source. An OpenCode 2 store's history is
// session_v2/session_message only; beside frozen 1.x tables, those only say what was never
// imported (kv['migration.v1-v2'], the importer in anomalyco/opencode's v1-migration).
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

  it("sessions pages with --offset: the second page is the listing's second session, and the last page has no next_offset", () => {
    const all = (json(runs.sessions).sessions as Json[]).map((session) => session.session_id);
    const page = json(runs.sessionsPage);
    expect((page.sessions as Json[]).map((session) => session.session_id)).toEqual([all[1]]);
    expect(page.next_offset).toBeUndefined();
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

  it("search and sessions take --alt: each result says which phrasings ranked it (an identifier by its parts), and those that found nothing are named", () => {
    expect(runs.searchAlt.code).toBe(0);
    const answer = json(runs.searchAlt);
    expect(answer.unmatched).toEqual([2]);
    expect((answer.messages as Json[]).find((message) => message.message_id === ids.answer)?.by).toEqual([0, 1]);
    expect(runs.searchAltText.out).toContain("  found by query, alt 1");
    expect(runs.searchAltText.out.at(-1)).toBe('found nothing: alt 2 "zebracorn"');
    const sessions = json(runs.sessionsAlt);
    expect(sessions.unmatched).toEqual([2]);
    expect(Object.fromEntries((sessions.sessions as Json[]).map((session) => [session.session_id, session.by]))).toEqual({
      ses_v2child: [0, 1],
      ses_v2main: [1],
    });
  });

  it("a bad --alt is a usage error naming the flag", () => {
    expect(runs.altWithoutQuery).toMatchObject({ code: 2, err: ["--alt needs --query: alternatives are other phrasings of it"] });
    expect(runs.altBadPattern.code).toBe(2);
    expect(runs.altBadPattern.err[0]).toMatch(/^--alt 2: /);
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
    expect(check(runs.doctor, "written by")!.detail[0]).toMatch(/^OpenCode 2\.0\.31( \(this plugin is tested with [^)]+\))?$/);
    expect(check(runs.doctor, "history")!.detail[0]).toMatch(/^2 sessions \(2 in .*\), 3 messages, \d+ KB on disk$/);
  });

  it('doctor reports a checkout listed under "plugins" as a directory as loadable, with no warning', () => {
    expect(check(runs.doctor, "opencode.json")).toEqual({
      name: "opencode.json",
      status: "ok",
      detail: [
        expect.stringMatching(
          /opencode\.json: "\.\/engram" — relative path, directory: the host loads its server\.js \(else index\.js\) \(under "plugins"\); OpenCode 2 loads it$/,
        ),
      ],
    });
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
    // The same config on a 1.x store: that host reads "plugin" only.
    expect(check(runs.doctor, "opencode.json")).toMatchObject({
      status: "warn",
      detail: [
        expect.stringMatching(
          /"\.\/engram" — relative path, package directory: .*; not loadable: OpenCode 1\.x reads its plugins from "plugin", not "plugins"$/,
        ),
        expect.stringMatching(/^the plugin is in no opencode\.json "plugin" list/),
      ],
    });
    expect(check(runs.doctor, "1.x tables")).toBeUndefined();
  });
});

describe.each(["opencode-2", "opencode-2-with-1x", "opencode-1"] as const)("export on each store (%s)", (shape) => {
  const runs = runInBun<Record<string, any>>(scenarios, shape);
  const ids = runs.ids as Record<string, string>;

  it("prints the session as Markdown: a header, then the turn in order", () => {
    expect(runs.exportMarkdown.code).toBe(0);
    const markdown = (runs.exportMarkdown.out as string[]).join("\n");
    expect(markdown).toMatch(/^# (Rate limiter|legacy ses_v2main)\n\n- Session: `ses_v2main`\n- Project directory: `[^`]+\/project`\n- Created: /);
    expect(markdown).toContain("## Turn 1\n\n**User** · ");
    expect(markdown).toContain("What limit does the rate limiter use?");
    if (shape === "opencode-1") return;
    const answer = markdown.indexOf("Decision: the rate limiter allows 120 requests per minute per key.");
    expect(answer).toBeGreaterThan(markdown.indexOf("What limit does the rate limiter use?"));
    expect(markdown.slice(answer)).toContain("**Tool `shell`** · completed · `prt_");
    expect(markdown.slice(answer)).toContain('```\nshell(command="echo LIMITER_REDIS_URL")\n```\n\nOutput:\n\n```\nLIMITER_REDIS_URL is not set\n```');
  });

  it("--json gives the document `opencode export` writes for this generation", () => {
    expect(runs.exportJson.code).toBe(0);
    const document = json(runs.exportJson);
    if (shape === "opencode-1") {
      // 1.x: Session.Info from the session row, messages as {info, parts} with their ids put back.
      expect(document.info).toMatchObject({ id: "ses_v2main", slug: "v2main", projectID: "prj_legacy", version: "1.18.33", title: "legacy ses_v2main" });
      expect(document.messages).toHaveLength(1);
      expect(document.messages[0].info).toMatchObject({ id: expect.stringMatching(/^msg_legacy/), sessionID: "ses_v2main", role: "user" });
      expect(document.messages[0].parts).toMatchObject([{ sessionID: "ses_v2main", type: "text", text: "What limit does the rate limiter use?" }]);
      return;
    }
    // OpenCode 2: Session.Info (the directory under location) and session_message rows as SessionMessage.Info.
    expect(document.info).toMatchObject({
      id: "ses_v2main",
      projectID: "prj_main",
      title: "Rate limiter",
      location: { directory: expect.stringMatching(/\/project$/) },
    });
    expect(document.info.time).toEqual({ created: expect.any(Number), updated: expect.any(Number) });
    expect(document.messages.map((message: Json) => [message.id, message.type])).toEqual([
      [ids.question, "user"],
      [ids.answer, "assistant"],
    ]);
    expect(document.messages[0]).toMatchObject({ text: "What limit does the rate limiter use?", time: { created: expect.any(Number) } });
    expect(document.messages[1].content[1]).toMatchObject({
      type: "tool",
      name: "shell",
      state: { content: [{ type: "text", text: "LIMITER_REDIS_URL is not set" }] },
    });
  });

  it("an unknown session exits 4; a message id is a usage error naming its session", () => {
    expect(runs.exportMissing).toMatchObject({ code: 4, err: [expect.stringMatching(/^session ses_nosuchsession is not in the store \(/)] });
    if (shape === "opencode-1") return;
    expect(runs.exportMessage).toMatchObject({
      code: 2,
      err: [`export takes a session id (ses_…), and ${ids.answer} is a message id; it belongs to session ses_v2main: opencode-engram export ses_v2main`],
    });
    expect(json(runs.showPart)).toMatchObject({
      type: "tool",
      tool: "shell",
      content: 'shell(command="echo LIMITER_REDIS_URL")\n---\nLIMITER_REDIS_URL is not set',
    });
  });
});
