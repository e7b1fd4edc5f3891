// Every parameter of every registered history tool, fuzzed through the real plugin over a fake
// host client behind the read-only guard. Each call must answer compact JSON under the byte cap
// or throw a short error naming the parameter (or the unknown id), with no stack, and never hang.

import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeClient } from "../store/testing/fake-client.ts";
import { anyValue, NASTY_VALUES } from "./testing/nasty-values.ts";
import { callTool, preview, problemWith, startPlugin, toolContext, type Outcome, type PluginUnderTest } from "../opencode1/testing/plugin-under-test.ts";
import { RawSessionBuilder } from "./testing/raw-session.ts";

const MAIN = "ses_fuzzmain";
const OTHER = "ses_fuzzother";
const CHILD = "ses_fuzzchild";
const FAST_CHECK_RUNS = 60;

let plugin: PluginUnderTest;
let snapshot: unknown;
const main = RawSessionBuilder.ordinary(MAIN, CHILD);
const other = RawSessionBuilder.ordinary(OTHER);
const child = new RawSessionBuilder(CHILD);
child.user("Review the limiter.");
child.assistant("It looks fine.");

const firstUser = main.messages[0]!;
const idOf = (value: unknown) => (value as { id: string }).id;
const VALID: Record<string, unknown> = {
  session_id: MAIN,
  message_id: idOf(firstUser.info),
  part_id: idOf(firstUser.parts[0]),
  query: "limiter",
};

/** Ids that exist, but not where the call looks: other kinds, other sessions, the hidden tail. */
const MISPLACED_IDS: [string, unknown][] = [
  ["message of another session", idOf(other.messages[0]!.info)],
  ["part of another session", idOf(other.messages[0]!.parts[0])],
  ["part of another message", idOf(main.messages[1]!.parts[0])],
  ["message hidden after the compaction", idOf(main.messages.at(-1)!.info)],
  ["session id as message id", MAIN],
  ["message id as session id", idOf(firstUser.info)],
  ["child session", CHILD],
  ["unknown session", "ses_doesnotexist"],
];

const counts = new Map<string, { tried: number; answered: number; rejected: number }>();
let problems: string[] = [];

function count(tool: string, outcome: Outcome): void {
  const entry = counts.get(tool) ?? { tried: 0, answered: 0, rejected: 0 };
  entry.tried++;
  if (outcome.ok) entry.answered++;
  else entry.rejected++;
  counts.set(tool, entry);
}

/** A rejection must say which parameter was wrong, or name the id (or turn number) it could not find. */
function namesTheCulprit(message: string, param: string, value: unknown): boolean {
  if (message.includes(param)) return true;
  if (typeof value === "number") return message.includes(String(value));
  return typeof value === "string" && value.trim() !== "" && message.includes(value.trim());
}

async function attempt(tool: string, args: unknown, blame?: { param: string; value: unknown }): Promise<Outcome> {
  const outcome = await callTool(plugin, tool, args, toolContext(MAIN, plugin.directory));
  count(tool, outcome);
  const problem = problemWith(outcome);
  if (problem) problems.push(`${tool} ${preview(args)}: ${problem}`);
  if (!outcome.ok && blame && !namesTheCulprit(outcome.message, blame.param, blame.value)) {
    problems.push(`${tool} ${preview(args)}: error does not name ${blame.param}: ${outcome.message.slice(0, 200)}`);
  }
  return outcome;
}

/** Parameters a tool reads without declaring them (older names kept for compatibility). */
const UNDECLARED: Record<string, string[]> = { history_browse_turns: ["turn_index"] };

function params(tool: string): { name: string; required: boolean }[] {
  const shape = plugin.tools[tool]!.args as unknown as Record<string, { safeParse(value: unknown): { success: boolean } }>;
  const declared = Object.entries(shape).map(([name, schema]) => ({ name, required: !schema.safeParse(undefined).success }));
  return [...declared, ...(UNDECLARED[tool] ?? []).map((name) => ({ name, required: false }))];
}

function baseArgs(tool: string): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const { name, required } of params(tool)) if (required) args[name] = VALID[name] ?? "x";
  return args;
}

function withValue(base: Record<string, unknown>, param: string, value: unknown): Record<string, unknown> {
  const args = { ...base };
  if (value === undefined) delete args[param];
  else args[param] = value;
  return args;
}

beforeEach(() => {
  problems = [];
});

beforeAll(async () => {
  const fake = new FakeClient();
  fake.addSession(MAIN, main.messages);
  fake.addSession(OTHER, other.messages);
  fake.addSession(CHILD, child.messages, { parentID: MAIN });
  snapshot = structuredClone([...fake.sessions.values()]);
  plugin = await startPlugin({ fake });
});

afterAll(() => {
  const lines = [...counts].map(([tool, c]) => `${tool}: ${c.tried} calls (${c.answered} answered, ${c.rejected} rejected)`);
  const total = [...counts.values()].reduce((sum, c) => sum + c.tried, 0);
  console.log(`fuzz summary: ${total} calls; ${NASTY_VALUES.length} table values + ${MISPLACED_IDS.length} misplaced ids per parameter; ${lines.join("; ")}`);
});

describe("tool arguments, fuzzed", () => {
  it("registers the four history tools, and every base call answers", async () => {
    const names = Object.keys(plugin.tools);
    expect(names).toEqual(expect.arrayContaining(["history_browse_turns", "history_browse_messages", "history_pull_message", "history_pull_part"]));
    for (const tool of names) {
      const outcome = await attempt(tool, baseArgs(tool));
      expect(outcome, `${tool} with ${preview(baseArgs(tool))}`).toMatchObject({ ok: true });
    }
  });

  it("rejects arguments that are not an object, and tolerates absent ones", async () => {
    for (const tool of Object.keys(plugin.tools)) {
      for (const raw of ["query", 42, ["msg_1"], true, Number.NaN]) {
        const outcome = await attempt(tool, raw);
        expect(outcome.ok, `${tool} with ${preview(raw)}`).toBe(false);
        if (!outcome.ok) expect(outcome.message).toMatch(/arguments must be a JSON object/);
      }
      for (const raw of [undefined, null, {}]) await attempt(tool, raw);
    }
    expect(problems).toEqual([]);
  });

  it("answers or names the parameter for every table value in every parameter", { timeout: 300_000 }, async () => {
    for (const tool of Object.keys(plugin.tools)) {
      const base = baseArgs(tool);
      for (const { name } of params(tool)) {
        for (const [, value] of [...NASTY_VALUES, ...MISPLACED_IDS]) {
          await attempt(tool, withValue(base, name, value), { param: name, value });
        }
        // A missing required parameter is named too.
        await attempt(tool, withValue(base, name, undefined), { param: name, value: undefined });
      }
    }
    expect(problems.slice(0, 30)).toEqual([]);
  });

  it("answers or names the parameter for generated values", { timeout: 300_000 }, async () => {
    for (const tool of Object.keys(plugin.tools)) {
      const base = baseArgs(tool);
      for (const { name } of params(tool)) {
        await fc.assert(
          fc.asyncProperty(anyValue, async (value) => {
            await attempt(tool, withValue(base, name, value), { param: name, value });
          }),
          { numRuns: FAST_CHECK_RUNS, seed: 20260601 },
        );
      }
    }
    expect(problems.slice(0, 30)).toEqual([]);
  });

  it("stays within bounds when every parameter is bad at once", { timeout: 300_000 }, async () => {
    for (const tool of Object.keys(plugin.tools)) {
      const names = params(tool).map((p) => p.name);
      const record = fc.dictionary(fc.constantFrom(...names, "unknown_param"), anyValue, { maxKeys: names.length + 1 });
      await fc.assert(
        fc.asyncProperty(record, async (args) => {
          await attempt(tool, args);
        }),
        { numRuns: FAST_CHECK_RUNS * 2, seed: 20260602 },
      );
    }
    expect(problems.slice(0, 30)).toEqual([]);
  });

  it("never changed the store and never called anything but reads", () => {
    expect(structuredClone([...plugin.fake.sessions.values()])).toEqual(snapshot);
    expect(plugin.violations).toEqual([]);
    expect(plugin.fake.calls.length).toBeGreaterThan(0);
  });
});
