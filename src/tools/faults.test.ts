// Host faults through the real plugin: failing and hanging-up clients, a server that ignores the
// page cursor, a session written to while it is read, broken config files, 20 concurrent calls
// on one cold session, and the message cache's byte budget over 500 sessions.

import { describe, expect, it } from "vitest";
import { CachedHistorySource } from "../store/cached-source.ts";
import { FakeClient, rawId, rawText } from "../store/testing/fake-client.ts";
import { createSdkReader } from "../store/sdk-reader.ts";
import { callTool, problemWith, startPlugin, toolContext, type Outcome, type PluginUnderTest } from "../opencode1/testing/plugin-under-test.ts";

const SID = "ses_faults";
const CALLER = "ses_caller";
type Json = Record<string, any>;

function session(fake: FakeClient, id: string, count: number, text = (i: number) => `message ${i}`): void {
  fake.addSession(
    id,
    Array.from({ length: count }, (_, i) => rawText(id, rawId("msg", i), i % 2 ? "assistant" : "user", text(i))),
  );
}

/** One call of every tool that reads SID, with arguments valid for a session of `count` messages. */
function everyTool(count: number): [string, Json][] {
  return [
    ["history_browse_turns", { session_id: SID, num_before: 5 }],
    ["history_browse_messages", { session_id: SID, num_before: 5 }],
    ["history_pull_message", { session_id: SID, message_id: rawId("msg", count - 1) }],
    ["history_pull_part", { session_id: SID, message_id: rawId("msg", count - 1), part_id: rawId("prt", count - 1) }],
  ];
}

async function run(plugin: PluginUnderTest, tool: string, args: Json): Promise<Outcome> {
  const outcome = await callTool(plugin, tool, args, toolContext(CALLER, plugin.directory));
  expect(problemWith(outcome), `${tool}`).toBeUndefined();
  return outcome;
}

function reads(fake: FakeClient, method: string, sessionId = SID): number {
  return fake.calls.filter((call) => call.method === method && (call.args as Json)?.path?.id === sessionId).length;
}

describe("client faults", () => {
  it("turns 500s, 404s and dropped connections into clear errors, and recovers when they pass", async () => {
    const fake = new FakeClient();
    session(fake, SID, 30);
    const plugin = await startPlugin({ fake });
    const faults: [FakeClient["faults"], RegExp][] = [
      [{ status: 500 }, /Reading .* failed \(status 500\); this may be temporary, try again\./],
      [{ status: 404 }, /Session ses_faults not found\. Use history_sessions/],
      [{ reject: true }, /Reading .* failed \(socket hang up\); try again\./],
    ];
    for (const [fault, message] of faults) {
      fake.faults = fault;
      for (const [tool, args] of everyTool(30)) {
        const outcome = await run(plugin, tool, args);
        expect(outcome.ok, `${tool} under ${JSON.stringify(fault)}`).toBe(false);
        if (!outcome.ok) expect(outcome.message).toMatch(message);
      }
    }
    fake.faults = {};
    for (const [tool, args] of everyTool(30)) expect((await run(plugin, tool, args)).ok, tool).toBe(true);
    expect(plugin.violations).toEqual([]);
  });

  it("reads a whole session from a server that ignores the page cursor", async () => {
    const fake = new FakeClient();
    session(fake, SID, 1_201);
    fake.faults = { ignoreCursor: true };
    const plugin = await startPlugin({ fake });
    const outcome = await run(plugin, "history_browse_turns", { session_id: SID, turn_number: 1 });
    expect(outcome.ok && (outcome.json as Json).turns[0].user.message_id).toBe(rawId("msg", 0));
    const latest = await run(plugin, "history_browse_turns", { session_id: SID });
    expect(latest.ok && (latest.json as Json).turns.at(-1).turn_number).toBe(601);
  });

  it("stays consistent when the session is written to while it is being read, and sees the write next time", async () => {
    const fake = new FakeClient();
    session(fake, SID, 1_200);
    const stored = fake.sessions.get(SID)!;
    let pages = 0;
    fake.beforeAnswer = (method) => {
      if (method === "session.messages" && ++pages === 2) stored.messages.push(rawText(SID, rawId("msg", 1_200), "user", "written mid-read"));
    };
    const plugin = await startPlugin({ fake });
    const first = await run(plugin, "history_browse_messages", { session_id: SID, message_id: rawId("msg", 0), num_after: 99 });
    if (!first.ok) throw new Error(first.message);
    const ids = (first.json as Json).messages.map((m: Json) => m.message_id);
    expect(ids).toEqual(Array.from({ length: 100 }, (_, i) => rawId("msg", i)));
    const latest = await run(plugin, "history_browse_messages", { session_id: SID, num_before: 1 });
    expect(latest.ok && (latest.json as Json).messages.map((m: Json) => m.message_id)).toEqual([rawId("msg", 1_199), rawId("msg", 1_200)]);
  });
});

describe("config faults", () => {
  it("works with defaults when the project's config file is broken, and says so in the host log", async () => {
    for (const broken of ["{ browse: { max_turns: ", "[1, 2]", '{"browse": {"max_turns": "lots", "preview_chars": -5}, "nope": 1}', "\u0000\uFFFF"]) {
      const fake = new FakeClient();
      session(fake, SID, 10);
      const plugin = await startPlugin({ fake, projectConfig: broken });
      for (const [tool, args] of everyTool(10)) expect((await run(plugin, tool, args)).ok, `${tool} with config ${broken}`).toBe(true);
      const warnings = fake.logs.filter((line) => line.level === "warn" && line.message.includes("opencode-engram.jsonc"));
      expect(warnings, `config ${JSON.stringify(broken)}`).toHaveLength(1);
    }
  });
});

describe("load", () => {
  it("serves 20 concurrent calls on one cold session with one read", async () => {
    const fake = new FakeClient();
    session(fake, SID, 1_200);
    const plugin = await startPlugin({ fake });
    const calls = Array.from({ length: 20 }, (_, i) => everyTool(1_200)[i % 4]!);
    const outcomes = await Promise.all(calls.map(([tool, args]) => run(plugin, tool, args)));
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    expect(reads(fake, "session.get")).toBe(1);
    // 1,200 messages in pages of 500: three pages, once.
    expect(reads(fake, "session.messages")).toBe(3);
  });

  it("keeps the message cache within its byte budget over 500 sessions", async () => {
    const fake = new FakeClient();
    const budget = 1024 * 1024;
    for (let s = 0; s < 500; s++) session(fake, `ses_${String(s).padStart(4, "0")}`, 20, (i) => `${s}:${i} ${"x".repeat(300)}`);
    const source = new CachedHistorySource(createSdkReader(fake, { pageSize: 500, timeoutMs: 1000 }), { checkSize: 20, maxSingleReads: 50, maxBytes: budget });
    let peak = 0;
    for (const id of fake.sessions.keys()) {
      expect(await source.loadMessages(id)).toHaveLength(20);
      peak = Math.max(peak, source.cachedBytes);
    }
    expect(peak).toBeLessThanOrEqual(budget);
    expect(peak).toBeGreaterThan(budget / 2);
    // The oldest sessions were evicted: reading one again reads it whole (session.get again).
    await source.loadMessages("ses_0000");
    expect(reads(fake, "session.get", "ses_0000")).toBe(2);
    expect(reads(fake, "session.get", "ses_0499")).toBe(1);
  });
});
