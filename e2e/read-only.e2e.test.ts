// Read-only, proven on the real host: after every registered history tool has run (good and bad
// arguments, own and other sessions), every message and part that existed before is byte-for-byte
// the same, the only new messages are the tool-call turns themselves, and the store's rows of
// the sessions no call ran in are unchanged.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { builtinName, shellCall, subagentCall, writeCall } from "./harness/builtin-tools.ts";
import { startHost, type Host } from "./harness/host.ts";
import type { HostMessage } from "./harness/types.ts";

let host: Host;
let main: string;
let other: string;
let runner: string;

type Snapshot = Map<string, Map<string, string>>;

/** Every session's messages, each as its JSON, taken twice in a row until the store is at rest. */
async function snapshot(): Promise<Snapshot> {
  let previous: string | undefined;
  for (let attempt = 0; attempt < 20; attempt++) {
    const out: Snapshot = new Map();
    for (const session of await host.sessions()) {
      out.set(session.id, new Map((await host.messages(session.id)).map((m) => [m.info.id, JSON.stringify(m)])));
    }
    const text = JSON.stringify([...out].map(([id, messages]) => [id, [...messages]]));
    if (text === previous) return out;
    previous = text;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error("the store never came to rest");
}

/** Rows, total data length and latest write time of a session in the host's database (1.x: message
 * and part; OpenCode 2: session_message, and the session's own session_v2 row whole). */
function storeRows(sessionId: string): string {
  const db = join(host.dataDir, "opencode.db");
  const tables = host.generation === 1 ? ["message", "part"] : ["session_message"];
  const sql = tables
    .map(
      (table) => `SELECT '${table}', count(*), coalesce(sum(length(data)), 0), coalesce(max(time_updated), 0) FROM ${table} WHERE session_id = '${sessionId}';`,
    )
    .join(" ");
  const session = host.generation === 2 ? ` SELECT * FROM session_v2 WHERE id = '${sessionId}';` : "";
  return execFileSync("sqlite3", ["-readonly", db, sql + session], { encoding: "utf8" });
}

function isHistoryCallTurn(message: HostMessage): boolean {
  if (message.info.role === "user") {
    return message.parts.every((part) => part.type === "text" && /^Please call history_\w+\.$/.test(String(part.text)));
  }
  return message.parts.every((part) => {
    if (part.type === "tool") return /^history_/.test(String(part.tool));
    if (part.type === "compaction") return false;
    return ["step-start", "step-finish", "text"].includes(part.type);
  });
}

function toolNames(messages: HostMessage[]): string[] {
  return messages.flatMap((m) => m.parts.filter((p) => p.type === "tool").map((p) => String(p.tool)));
}

beforeAll(async () => {
  host = await startHost();
  const dir = host.directory;
  main = (await host.createSession()).id;
  host.mock.push({ text: "A token bucket, 100 requests per minute per key." });
  await host.prompt(main, "Decision: the rate limiter is a token bucket.");
  const generation = host.generation;
  host.mock.push(
    { toolCalls: [shellCall(generation, "echo seeded", "Echo")] },
    { toolCalls: [writeCall(generation, `${dir}/src/limiter.ts`, "export const LIMIT = 100;\n")] },
    { text: "Wrote src/limiter.ts." },
  );
  await host.prompt(main, "Create src/limiter.ts.");
  host.mock.push(
    { toolCalls: [subagentCall(generation, "Review", "Review src/limiter.ts.")] },
    { text: "Child: looks fine." },
    { text: "The review found nothing." },
  );
  await host.prompt(main, "Ask a subagent to review it.");
  expect(await host.summarize(main)).toBe(true);
  host.mock.push({ text: "Continuing." });
  await host.prompt(main, "What next?");

  other = (await host.createSession()).id;
  host.mock.push({ toolCalls: [shellCall(generation, "echo other", "Echo")] }, { text: "Done." });
  await host.prompt(other, "Run echo other.");
  runner = (await host.createSession()).id;
});

afterAll(async () => {
  await host?.stop();
});

test("a full run of every history tool changes nothing but adds its own call turns", async () => {
  const child = (await host.children(main))[0]!.id;
  const before = await snapshot();
  const untouched = [other, child];
  const rowsBefore = untouched.map(storeRows);
  for (const rows of rowsBefore) expect(rows).toMatch(/^(session_)?message\|[1-9]\d*\|/m);
  const seeded = toolNames(await host.messages(main));
  expect(seeded).toEqual(expect.arrayContaining([builtinName(host.generation, "bash"), "write", builtinName(host.generation, "task")]));

  const mainMessages = await host.messages(main);
  const firstUser = mainMessages[0]!;
  const textPart = firstUser.parts.find((part) => part.type === "text")!;
  const offered = (host.mock.chatRequests().at(-1)!.body.tools as { function: { name: string } }[])
    .map((tool) => tool.function.name)
    .filter((name) => name.startsWith("history_"));
  expect(offered).toEqual(expect.arrayContaining(["history_browse_turns", "history_browse_messages", "history_pull_message", "history_pull_part"]));

  const calls: Record<string, unknown[]> = {
    history_browse_turns: [
      { session_id: main, num_before: 100 },
      { session_id: child },
      { turn_number: -3 },
      { session_id: other, turn_number: 1, num_after: 500 },
    ],
    history_browse_messages: [{ session_id: main, message_id: firstUser.info.id, num_after: 100 }, { session_id: other }, { message_id: "prt_nope" }],
    history_pull_message: [{ session_id: main, message_id: firstUser.info.id }, { session_id: other, message_id: firstUser.info.id }, {}],
    history_pull_part: [
      { session_id: main, message_id: firstUser.info.id, part_id: textPart.id },
      { session_id: main, message_id: firstUser.info.id, part_id: textPart.id, offset: 1e12 },
    ],
    history_search: [{ query: "limiter", scope: "project" }, { query: "(a+)+$", regex: true, session_id: main }, { query: "" }],
    history_sessions: [{}, { query: "limiter", include_children: true }, { limit: -1 }],
  };
  let made = 0;
  for (const name of offered) {
    for (const args of calls[name] ?? [{}, { session_id: "msg_wrongkind" }]) {
      const result = await host.callTool(runner, name, args);
      expect(["completed", "error"]).toContain(result.status);
      if (result.error) expect(result.error).not.toMatch(/\n\s+at /);
      made++;
    }
  }
  // A few calls in the session that is read, so its own view and its own new turns are covered.
  for (const args of [{}, { num_before: 100 }]) await host.callTool(main, "history_browse_turns", args);
  await host.callTool(main, "history_pull_message", { message_id: firstUser.info.id });
  expect(made).toBeGreaterThanOrEqual(offered.length * 2);
  console.log(`read-only run: ${made + 3} tool calls over ${offered.length} tools (${offered.join(", ")}); ${before.size} sessions compared`);

  const after = await snapshot();
  for (const [sessionId, messages] of before) {
    const now = after.get(sessionId);
    expect(now, `session ${sessionId} still exists`).toBeDefined();
    for (const [messageId, json] of messages) expect(now!.get(messageId), `message ${messageId} of ${sessionId}`).toBe(json);
    const added = [...now!.keys()].filter((id) => !messages.has(id));
    const addedMessages = added.map((id) => JSON.parse(now!.get(id)!) as HostMessage);
    if (sessionId === main || sessionId === runner) {
      expect(addedMessages.length).toBeGreaterThan(0);
      for (const message of addedMessages)
        expect(isHistoryCallTurn(message), `new ${message.info.role} message ${JSON.stringify(message.parts.map((p) => p.type))}`).toBe(true);
    } else {
      expect(added, `new messages in ${sessionId}`).toEqual([]);
    }
  }
  expect(untouched.map(storeRows)).toEqual(rowsBefore);
});
