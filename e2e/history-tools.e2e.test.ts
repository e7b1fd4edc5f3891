// The four history tools inside the real host, called by the (scripted) model on a session that
// has text, bash/write/read/edit calls (one failing), a file attachment, a subagent and a
// compaction. Ids one tool returns are fed to the next.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { builtinName, editCall, readCall, shellCall, subagentCall, writeCall } from "./harness/builtin-tools.ts";
import { startHost, type Host } from "./harness/host.ts";
import { onOpenCode2 } from "./harness/hosts.ts";
import { repoRoot } from "./harness/paths.ts";
import { schemaError, toolParts } from "./harness/tool-call.ts";

type Json = Record<string, any>;

let host: Host;
let sessionId: string;
let childId: string;

async function call(name: string, args: unknown, session = sessionId) {
  return host.callTool(session, name, args);
}

beforeAll(async () => {
  host = await startHost({ projectFiles: { "notes.txt": "Remember: the limiter must be per API key.\n" } });
  const dir = host.directory;
  const generation = host.generation;
  sessionId = (await host.createSession()).id;

  host.mock.push({ text: "Agreed: a token bucket, 100 requests per minute per API key." });
  await host.prompt(sessionId, "Decision: rate limiter is a token bucket, 100 req/min per key.");

  host.mock.push(
    { reasoning: "Create the module first.", toolCalls: [shellCall(generation, "echo hello-from-bash", "Say hello")] },
    { toolCalls: [writeCall(generation, `${dir}/src/limiter.ts`, "export const LIMIT = 100;\n")] },
    { text: "Created src/limiter.ts with LIMIT = 100." },
  );
  await host.prompt(sessionId, "Create src/limiter.ts exporting LIMIT.");

  host.mock.push(
    { toolCalls: [readCall(generation, `${dir}/src/limiter.ts`)] },
    { toolCalls: [editCall(generation, `${dir}/src/limiter.ts`, "NOT THERE", "x")] },
    { toolCalls: [editCall(generation, `${dir}/src/limiter.ts`, "LIMIT = 100", "LIMIT = 120")] },
    { text: "Raised LIMIT to 120 after one failed edit." },
  );
  await host.prompt(sessionId, "Raise the limit to 120.");

  host.mock.push({ text: "The notes say the limiter is per API key." });
  await host.prompt(sessionId, "Read the attached notes.", {
    parts: [{ type: "file", mime: "text/plain", filename: "notes.txt", url: `file://${dir}/notes.txt` }],
  });

  host.mock.push(
    { toolCalls: [subagentCall(generation, "Review limiter", "Review src/limiter.ts for bugs.")] },
    { text: "Child: the limiter looks fine." },
    { text: "The reviewer found no bugs." },
  );
  await host.prompt(sessionId, "Ask a subagent to review the limiter.");
  childId = (await host.children(sessionId))[0]!.id;

  expect(await host.summarize(sessionId)).toBe(true);
  host.mock.push({ text: "Continuing after compaction." });
  await host.prompt(sessionId, "What next?");
});

/** The last turn before the compaction's kept tail (all five when it keeps none). */
async function lastVisibleTurn(): Promise<number> {
  const messages = await host.messages(sessionId);
  const compaction = messages.flatMap((m) => m.parts).find((p) => p.type === "compaction");
  const tail = typeof compaction?.tail_start_id === "string" ? compaction.tail_start_id : undefined;
  const users = messages.filter((m) => m.info.role === "user").slice(0, 5);
  return tail === undefined ? 5 : users.filter((m) => m.info.id < tail).length;
}

afterAll(async () => {
  await host?.stop();
});

describe("history tools through the model", () => {
  test("browse_turns in the own view stops at the compaction, other views see it whole", async () => {
    const own = await call("history_browse_turns", { num_before: 20 });
    expect(own.error).toBeUndefined();
    const turns = (own.output as Json).turns as Json[];
    // The own view hides what the model has: the summary, and the kept tail from the compaction's
    // tail_start_id on (OpenCode 2.1.2's `keepID` is turn 5 here). Fails on 2.1.2 until the
    // product's view of its compaction row (keepID, no `recent`) lands: it shows turn 5 too.
    const lastVisible = await lastVisibleTurn();
    expect(turns.map((t) => t.turn_number)).toEqual([1, 2, 3, 4, 5].slice(0, lastVisible));
    expect(turns[1]!.assistant).toMatchObject({
      total_messages: 3,
      tool: { calls: [`1× ${builtinName(host.generation, "bash")}`, "1× write"], outcome: "completed" },
      modified: ["src/limiter.ts"],
    });
    expect(turns[2]!.assistant.tool).toEqual({ calls: ["1× read", "2× edit: 1× error"], outcome: "recovered" });
    expect(turns[3]!.user).toMatchObject({ preview: "Read the attached notes.", attachment: ["notes.txt"] });

    const hidden = await call("history_browse_turns", { turn_number: lastVisible + 1 });
    expect(hidden.status).toBe("error");
    expect(hidden.error).toMatch(new RegExp(`Turn ${lastVisible + 1} is hidden.*latest turn you can browse is ${lastVisible}`));

    const child = await call("history_browse_turns", { session_id: childId });
    // 2.1.2's subagent tool prompts the child with its own first line before the caller's prompt.
    const hostPreamble = host.generation === 2 ? "You are a subagent spawned by another session. " : "";
    expect((child.output as Json).turns[0].user.preview).toBe(`${hostPreamble}Review src/limiter.ts for bugs.`);
  });

  test("ids flow from browse_turns to browse_messages to pull_message to pull_part", async () => {
    const turn = ((await call("history_browse_turns", { turn_number: 3 })).output as Json).turns[0];
    const window = (await call("history_browse_messages", { message_id: turn.user.message_id, num_after: 4 })).output as Json;
    expect(window.messages[0]).toMatchObject({ message_id: turn.user.message_id, role: "user", turn_number: 3 });
    const failed = (window.messages as Json[]).find((m) => m.tool?.calls?.[0] === "1× edit: 1× error");
    expect(failed).toBeDefined();
    expect(window.before_message_id).toMatch(/^msg_/);

    const pulled = (await call("history_pull_message", { message_id: failed!.message_id })).output as Json;
    expect(pulled.sections[0]).toMatchObject({ type: "tool", tool: "edit", status: "error", input: { oldString: "NOT THERE" } });

    const bash = builtinName(host.generation, "bash");
    const stored = toolParts(await host.messages(sessionId), bash)[0]!;
    const part = (await call("history_pull_part", { message_id: stored.messageID, part_id: stored.id })).output as Json;
    expect(part.type).toBe("tool");
    expect(part.content).toMatch(new RegExp(`^${bash}\\(command="echo hello-from-bash"`));
    expect(part.content).toContain("hello-from-bash\n");
  });

  test("the compacted part of another session's view shows the summary and what followed", async () => {
    // Read from the child session, the parent is "another session" and seen whole.
    const whole = (await call("history_browse_turns", { session_id: sessionId, num_before: 50 }, childId)).output as Json;
    const numbers = (whole.turns as Json[]).map((t) => t.turn_number);
    if (host.generation === 1) {
      expect(numbers.slice(0, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(whole.turns[5].user.preview).toBe("[compaction request]");
      expect(whole.turns[6].user.preview).toBe("What next?");
    } else {
      // OpenCode 2's compaction is one stored row with no user message: the summary closes turn 5.
      expect(numbers.slice(0, 6)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(whole.turns[5].user.preview).toBe("What next?");
      const pulled = (await call("history_browse_messages", { session_id: sessionId, message_id: whole.turns[5].user.message_id, num_before: 3 }, childId))
        .output as Json;
      expect((pulled.messages as Json[]).map((m) => m.preview)).toContain("[compacted summary]");
    }
  });

  test("bad arguments give tool errors naming the parameter, and the session goes on", async () => {
    const generation = host.generation;
    const cases: [string, unknown, RegExp][] = [
      [
        "history_browse_turns",
        { num_before: -1 },
        schemaError(generation, "history_browse_turns", "num_before", /num_before must be an integer from 0 to 100/),
      ],
      ["history_browse_turns", { session_id: "ses_doesnotexist" }, /Session ses_doesnotexist not found/],
      ["history_browse_messages", { message_id: "prt_1" }, /message_id must be an id starting with "msg_"/],
      ["history_pull_message", {}, schemaError(generation, "history_pull_message", "message_id", /message_id is required/)],
      ["history_pull_part", { message_id: "msg_nope", part_id: "prt_nope" }, /Message msg_nope not found/],
    ];
    for (const [name, args, error] of cases) {
      const result = await call(name, args);
      expect(result.status, name).toBe("error");
      expect(result.error).toMatch(error);
      expect(result.error).not.toMatch(/\n\s+at /);
    }
    host.mock.push({ text: "Still here." });
    const reply = await host.prompt(sessionId, "Are you still there?");
    expect(reply.info.error).toBeUndefined();
  });
});

// The 1.x store and its HTTP API side by side (compare-readers.ts reads 1.x's message/part tables).
describe.skipIf(onOpenCode2)("SQLite fast path (1.x only: compares with 1.x's HTTP API)", () => {
  test("the plugin used it, and it reads exactly what the host's API returns (messages, and session info but the agent)", async () => {
    expect(host.logs()).not.toMatch(/SQLite fast path (not used|failed)/);
    const script = join(repoRoot, "e2e", "bun", "compare-readers.ts");
    for (const id of [sessionId, childId]) {
      const out = execFileSync(host.binary, [script, host.dataDir, id, host.url, host.directory], {
        env: { ...process.env, BUN_BE_BUN: "1" },
        encoding: "utf8",
      });
      const result = JSON.parse(out.trim().split("\n").at(-1)!);
      expect(result.error).toBeUndefined();
      expect(result.sqlite).toBeGreaterThan(1);
      expect(result).toMatchObject({ equal: true, firstDiff: -1, infoEqual: true });
      expect(result.sqlite).toBe(result.http);
    }
  });
});
