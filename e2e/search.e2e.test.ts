// history_search and history_sessions inside the real host, on sessions seeded through the model.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { builtinName, shellCall, writeCall } from "./harness/builtin-tools.ts";
import { startHost, type Host } from "./harness/host.ts";
import { schemaError } from "./harness/tool-call.ts";

type Json = Record<string, any>;

let host: Host;
let billing: string;
let audio: string;
let decisionId: string;

async function search(session: string, args: Json) {
  const result = await host.callTool(session, "history_search", args);
  expect(result.error, JSON.stringify(args)).toBeUndefined();
  return result.output as Json;
}

beforeAll(async () => {
  host = await startHost();
  const dir = host.directory;

  billing = (await host.createSession()).id;
  host.mock.push({ text: "Decision: invoices round half-even, and computeLineItemTotals sums before tax." });
  const decision = await host.prompt(billing, "How should invoice totals be rounded?");
  decisionId = decision.info.id;
  host.mock.push(
    {
      toolCalls: [
        writeCall(
          host.generation,
          `${dir}/src/totals.ts`,
          "export function computeLineItemTotals(items) {\n  return items.reduce((a, b) => a + b.amount, 0);\n}\n",
        ),
      ],
    },
    { toolCalls: [shellCall(host.generation, "echo 'Error: PAYMENT_SANDBOX_KEY is not set'", "Try the sandbox")] },
    { text: "The sandbox run failed: the payment key is missing." },
  );
  await host.prompt(billing, "Write the totals helper and try the sandbox.");

  audio = (await host.createSession()).id;
  host.mock.push({ text: "无线耳机的电池续航需要重新测试。形態素解析のテストも追加しました。카드가 결제되지 않았습니다." });
  await host.prompt(audio, "Summarise the QA notes for the wireless headphones.");
});

afterAll(async () => {
  await host?.stop();
});

describe("history_search", () => {
  test("finds an identifier by its inner words and points at the message", async () => {
    const answer = await search(billing, { query: "line item totals" });
    // The write that defines computeLineItemTotals in totals.ts (a tool call's input weighs more)
    // may come first; the decision that names it is found too, in turn 1.
    expect(answer.messages[0].hits[0].snippets.join(" ")).toMatch(/computeLineItemTotals/);
    const decision = answer.messages.find((m: Json) => m.message_id === decisionId);
    expect(decision?.turn_number).toBe(1);
    expect(decision?.hits[0].snippets.join(" ")).toMatch(/computeLineItemTotals/);
  });

  test("searches tool calls and outputs with type=tool, and filters by tool", async () => {
    const shell = builtinName(host.generation, "bash");
    const answer = await search(billing, { query: "PAYMENT_SANDBOX_KEY", type: "tool", tool: shell });
    expect(answer.messages).toHaveLength(1);
    expect(answer.messages[0].hits[0]).toMatchObject({ type: "tool", tool_name: shell });
    const pulled = await host.callTool(billing, "history_pull_part", {
      message_id: answer.messages[0].message_id,
      part_id: answer.messages[0].hits[0].part_id,
    });
    expect((pulled.output as Json).content).toContain("PAYMENT_SANDBOX_KEY is not set");
  });

  test("literal and regex modes", async () => {
    const literal = await search(billing, { query: "half-even", literal: true });
    expect(literal.messages[0].message_id).toBe(decisionId);
    const regex = await search(billing, { query: "compute\\w+Totals", regex: true, type: "text|tool" });
    expect(regex.messages.length).toBeGreaterThanOrEqual(2);
  });

  test("finds Chinese, Japanese and Korean by a substring", async () => {
    for (const query of ["耳机", "解析", "카드"]) {
      const answer = await search(audio, { query });
      expect(answer.messages?.[0]?.role, query).toBe("assistant");
    }
  });

  test("project scope finds the answer in another session", async () => {
    const answer = await search(audio, { query: "sandbox key", scope: "project", type: "text|tool" });
    expect(answer.messages[0].session_id).toBe(billing);
    // The words are in the echo's output: the snippet is cut from it, not from the call (docs/tools.md shows it).
    expect(answer.messages[0].hits[0].snippets).toEqual(["…Error: PAYMENT_SANDBOX_KEY is not set"]);
    console.log(`project search, first hit: ${JSON.stringify(answer.messages[0])}`);
  });

  test("a message appended after the first search is found by the next one", async () => {
    await search(billing, { query: "totals" });
    host.mock.push({ text: "Follow-up: the quokka migration is scheduled for Friday." });
    await host.prompt(billing, "Any news?");
    const answer = await search(billing, { query: "quokka" });
    expect(answer.messages).toHaveLength(1);
  });

  test("no match gives a hint, and bad arguments name the parameter", async () => {
    const none = await search(billing, { query: "zebracorn" });
    expect(none.messages).toBeUndefined();
    expect(none.hint).toMatch(/No message matches/);
    const bad = await host.callTool(billing, "history_search", { query: "x", type: "code" });
    expect(bad.error).toMatch(/^type must be/);
  });

  test("alternatives: each phrasing ranked, fused, with the phrasings that found each message", async () => {
    const answer = await search(billing, { query: "why did the sandbox run fail", alternatives: ["PAYMENT_SANDBOX_KEY is not set", "zebracorn"] });
    // The shell call printing the error: found by the query's "sandbox" and by the error text.
    const shell = builtinName(host.generation, "bash");
    const error = answer.messages.find((m: Json) => m.hits.some((h: Json) => h.tool_name === shell));
    expect(error?.by).toEqual([0, 1]);
    expect(answer.unmatched).toEqual([2]);
    expect(answer.messages.every((m: Json) => Array.isArray(m.by) && m.by.length > 0)).toBe(true);
    // Without alternatives, no phrasing is named.
    const plain = await search(billing, { query: "why did the sandbox run fail" });
    expect(plain.messages.every((m: Json) => m.by === undefined)).toBe(true);
    expect(plain.unmatched).toBeUndefined();
  });

  test("bad alternatives get an error naming the parameter", async () => {
    const many = await host.callTool(billing, "history_search", { query: "sandbox", alternatives: ["a1", "b2", "c3", "d4"] });
    expect(many.error).toMatch(/^alternatives must be a list of at most 3 strings/);
    const empty = await host.callTool(billing, "history_search", { query: "sandbox", alternatives: ["payment", "  "] });
    expect(empty.error).toMatch(/^alternatives\[1\] must not be empty/);
    // An item that is not a string breaks the JSON Schema (array of strings): OpenCode 2 answers first.
    const number = await host.callTool(billing, "history_search", { query: "sandbox", alternatives: [42] });
    expect(number.error).toMatch(
      schemaError(host.generation, "history_search", "alternatives\\[0\\]", /^alternatives\[0\] must be a string of 1 to 500 characters/),
    );
    const long = await host.callTool(billing, "history_search", { query: "sandbox", alternatives: ["x".repeat(501)] });
    expect(long.error).toMatch(/^alternatives\[0\] is too long: at most 500 characters \(got 501\)/);
  });
});

describe("history_sessions", () => {
  test("lists the project's sessions newest first, and ranks them by a query", async () => {
    const all = (await host.callTool(audio, "history_sessions", {})).output as Json;
    const ids = (all.sessions as Json[]).map((s) => s.session_id);
    expect(ids).toEqual(expect.arrayContaining([billing, audio]));
    const ranked = (await host.callTool(audio, "history_sessions", { query: "payment sandbox" })).output as Json;
    expect(ranked.sessions[0].session_id).toBe(billing);
    expect(ranked.sessions[0].snippet).toMatch(/sandbox/i);
    console.log(`history_sessions, first: ${JSON.stringify(ranked.sessions[0])}`);
    const fused = (await host.callTool(audio, "history_sessions", { query: "wireless headphones", alternatives: ["PAYMENT_SANDBOX_KEY"] })).output as Json;
    expect(fused.sessions.map((s: Json) => [s.session_id, s.by])).toEqual([
      [audio, [0]],
      [billing, [1]],
    ]);
  });
});
