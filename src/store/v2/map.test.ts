// OpenCode 2's message rows into the core's types. The row shapes follow
// packages/schema/src/session-message.ts@0ceb3dd56f35d1b08bd5f3f8b969962e97fa0e20 (anomalyco/opencode):
// `data` is the encoded message without id and type; times are epoch milliseconds; tool state is
// streaming {input: string} | running {input, metadata} | completed {input, content[]} | error
// {input, error {type, message}, content?}; tool content is text {text} or file {uri, mime, name?}
// (packages/schema/src/tool.ts@0f131b3e). Shell output is {output, cursor, size, truncated}
// (packages/schema/src/shell.ts@3ece701d). Compaction and the live context: packages/core/src/
// session/compaction.ts@031a4a9c (`recent` is a text copy of the newest messages; 2.1.2 stores none
// and names the first kept message in `metadata.keepID` instead, see compaction-2.1.2.test.ts; a user message's
// `skills` are {name, text?}, their text sent to the model) and
// packages/core/src/session/history.ts@008d5715 (the runner's messages start at the latest
// completed compaction's seq).
import { describe, expect, it } from "vitest";
import { id } from "../../tools/params.ts";
import { messagePreview } from "../../history/preview.ts";
import { modifiedFiles } from "../../history/modified.ts";
import { buildView } from "../../history/view.ts";
import { mapV2Message, mapV2Session, partId, type V2MessageRow } from "./map.ts";

let seq = 0;
function row(type: string, data: Record<string, unknown>, messageId = `msg_v2${String(++seq).padStart(4, "0")}`): V2MessageRow {
  return { id: messageId, type, seq: seq * 10, timeCreated: 1_000 + seq, timeUpdated: 1_000 + seq, data: { time: { created: 5_000 + seq }, ...data } };
}
const map = (r: V2MessageRow) => mapV2Message(r, "ses_v2");

describe("OpenCode 2 message rows", () => {
  it("a user prompt: its text, files, agents and activated skills, with the row's seq as its position", () => {
    const r = row("user", {
      text: "Fix the limiter",
      files: [
        { uri: "file:///p/src/a.ts", mime: "text/plain", name: "a.ts" },
        { uri: "data:image/png;base64,xx", mime: "image/png" },
      ],
      agents: [{ name: "review" }],
      skills: [{ name: "deploy", text: "How to deploy" }, { name: "empty" }],
    });
    const message = map(r)!;
    expect(message).toMatchObject({ id: r.id, sessionId: "ses_v2", role: "user", position: r.seq, created: (r.data!.time as { created: number }).created });
    expect(message.parts).toMatchObject([
      { kind: "text", text: "Fix the limiter" },
      { kind: "file", mime: "text/plain", filename: "a.ts", url: "file:///p/src/a.ts", path: "/p/src/a.ts" },
      { kind: "file", mime: "image/png", url: undefined },
      { kind: "agent", name: "review" },
      { kind: "text", text: "How to deploy", synthetic: true },
    ]);
    expect(messagePreview(message, 80)).toBe("Fix the limiter");
    expect(buildView("ses_v2", [message], false).turnNumbers).toEqual([1]);
  });

  it("an assistant message: text, reasoning and each tool state, the step's files as a patch", () => {
    const r = row("assistant", {
      agent: "build",
      model: { id: "m", providerID: "p" },
      time: { created: 7_000, completed: 7_500 },
      snapshot: { files: ["src/limiter.ts"] },
      content: [
        { type: "reasoning", text: "Think." },
        { type: "text", text: "Running it." },
        {
          type: "tool",
          id: "call_1",
          name: "shell",
          state: {
            status: "completed",
            input: { command: "npm test" },
            content: [
              { type: "text", text: "1 failed" },
              { type: "file", uri: "file:///tmp/log", mime: "text/plain", name: "log" },
            ],
          },
          time: { created: 1 },
        },
        {
          type: "tool",
          id: "call_2",
          name: "write",
          state: { status: "error", input: { path: "/p/x.ts" }, error: { type: "tool.error", message: "denied" } },
          time: { created: 1 },
        },
        { type: "tool", id: "call_3", name: "read", state: { status: "running", input: { path: "/p/y.ts" }, metadata: {} }, time: { created: 1 } },
        { type: "tool", id: "call_4", name: "patch", state: { status: "streaming", input: '{"patchText": "*** Begin' }, time: { created: 1 } },
      ],
    });
    const message = map(r)!;
    expect(message).toMatchObject({ role: "assistant", agent: "build", created: 7_000, completed: 7_500 });
    expect(message.parts).toMatchObject([
      { kind: "reasoning", text: "Think." },
      { kind: "text", text: "Running it." },
      { kind: "tool", callId: "call_1", tool: "shell", status: "completed", input: { command: "npm test" }, output: "1 failed\n[file log text/plain]" },
      { kind: "tool", tool: "write", status: "error", error: "denied", output: undefined },
      { kind: "tool", tool: "read", status: "running", output: undefined },
      { kind: "tool", tool: "patch", status: "pending", input: '{"patchText": "*** Begin' },
      { kind: "patch", files: ["src/limiter.ts"] },
    ]);
    expect(modifiedFiles([message], "/p")).toEqual(["src/limiter.ts"]);
  });

  it("an assistant's error names its type and message", () => {
    expect(map(row("assistant", { content: [], error: { type: "provider.error", message: "overloaded" } }))!.error).toEqual({
      name: "provider.error",
      message: "overloaded",
    });
  });

  it("part ids pass the tools' prt_ check and stay the same as the content grows", () => {
    const first = row("assistant", { content: [{ type: "text", text: "a" }] }, "msg_fork0evt_10");
    const grown = {
      ...first,
      data: {
        ...first.data,
        content: [
          { type: "text", text: "a b" },
          { type: "reasoning", text: "c" },
        ],
      },
    };
    const before = map(first)!.parts.map((part) => part.id);
    const after = map(grown)!.parts.map((part) => part.id);
    expect(after.slice(0, 1)).toEqual(before);
    for (const partIdValue of [...after, partId(`msg_${"x".repeat(200)}`, "file12"), partId("msg_odd.id/with:chars", "0")]) {
      expect(id("prt_").safeParse(partIdValue).success).toBe(true);
    }
    expect(new Set(after).size).toBe(after.length);
  });

  it("host-written rows (synthetic, system, skill, shell) open no turn and are labelled as such", () => {
    const prompt = map(row("user", { text: "Go" }))!;
    const synthetic = map(row("synthetic", { text: "Subagent result: done", description: "result" }))!;
    const system = map(row("system", { text: "Instructions changed" }))!;
    const skill = map(row("skill", { skill: "skl_1", name: "deploy", text: "How to deploy" }))!;
    const shell = map(
      row("shell", { shellID: "sh_1", command: "ls", status: "exited", exit: 0, output: { output: "a.ts\n", cursor: 5, size: 5, truncated: false } }),
    )!;
    for (const message of [synthetic, system, skill, shell]) expect(message).toMatchObject({ role: "user", hostWritten: true });
    expect(synthetic.parts).toMatchObject([{ kind: "text", text: "Subagent result: done", synthetic: true }]);
    expect(skill.parts).toMatchObject([{ kind: "text", text: "How to deploy", synthetic: true }]);
    expect(shell.parts).toMatchObject([{ kind: "tool", tool: "shell", status: "completed", input: { command: "ls" }, output: "a.ts\n" }]);
    expect(buildView("ses_v2", [prompt, synthetic, system, skill, shell], false).turnNumbers).toEqual([1, 1, 1, 1, 1]);
    expect(messagePreview(system, 80)).toBe("[added by the host]");
    expect(messagePreview(shell, 80)).toBe("[command run by the user]");
  });

  it("a shell command still running, timed out, or from an older build with a string output", () => {
    expect(map(row("shell", { command: "sleep 9", status: "running" }))!.parts[0]).toMatchObject({ status: "running" });
    expect(map(row("shell", { command: "sleep 9", status: "timeout" }))!.parts[0]).toMatchObject({ status: "error", error: "timeout" });
    expect(map(row("shell", { callID: "c", command: "pwd", output: "/p", time: { created: 1, completed: 2 } }))!.parts[0]).toMatchObject({
      status: "completed",
      output: "/p",
      callId: "c",
    });
  });

  it("a completed compaction is a summary where the live context starts; running and failed ones are not", () => {
    const before = [map(row("user", { text: "old question" }))!, map(row("assistant", { content: [{ type: "text", text: "old answer" }] }))!];
    const compaction = map(row("compaction", { status: "completed", reason: "auto", summary: "## Objective\n- limiter", recent: "[User]: old question" }))!;
    const after = [map(row("user", { text: "new question" }))!];
    expect(compaction).toMatchObject({ role: "assistant", summary: true, agent: "compaction" });
    expect(compaction.parts).toMatchObject([
      { kind: "compaction", auto: true },
      { kind: "text", text: "## Objective\n- limiter" },
    ]);
    // `recent` is a copy of messages that stay stored as themselves: not indexed again.
    expect(JSON.stringify(compaction)).not.toContain("[User]: old question");
    expect(messagePreview(compaction, 80)).toBe("[compacted summary]");
    const view = buildView("ses_v2", [...before, compaction, ...after], true);
    expect(view.visibleEnd).toBe(2);
    expect(map(row("compaction", { status: "running", reason: "manual", summary: "", recent: "" }))).toBeUndefined();
    const failed = map(row("compaction", { status: "failed", reason: "auto", error: { type: "compaction.failed", message: "no summary" } }))!;
    expect(failed).toMatchObject({ role: "assistant", error: { name: "compaction.failed", message: "no summary" }, parts: [] });
    expect(buildView("ses_v2", [...before, failed, ...after], true).visibleEnd).toBe(4);
  });

  it("switches and idle markers carry no history; unknown or unparsable rows are skipped", () => {
    for (const type of ["agent-switched", "model-switched", "location-switched", "idle", "some-new-type"])
      expect(map(row(type, { agent: "x", outcome: "succeeded" }))).toBeUndefined();
    expect(map({ ...row("user", { text: "x" }), data: undefined })).toBeUndefined();
  });
});

describe("OpenCode 2 session rows", () => {
  it("maps the columns read from session_v2", () => {
    expect(
      mapV2Session({ id: "ses_1", project_id: "prj", parent_id: "ses_0", title: null, directory: "/p", agent: "general", time_created: 1, time_updated: 2 }),
    ).toEqual({
      id: "ses_1",
      title: "",
      parentId: "ses_0",
      agent: "general",
      directory: "/p",
      created: 1,
      updated: 2,
    });
    expect(mapV2Session({ title: "no id" })).toBeUndefined();
  });
});
