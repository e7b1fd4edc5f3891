// The real plugin over a FakeClient behind the read-only guard, in a scratch project whose
// global config and data folders are temp dirs (never the user's). Test-only.

import { mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Hooks, PluginInput, ToolContext } from "@opencode-ai/plugin";
import { byteLength } from "../../history/compact.ts";
import { MAX_ANSWER_BYTES } from "../../history/limits.ts";
import { FakeClient } from "../../store/testing/fake-client.ts";
import { readOnlyGuard } from "../../store/testing/read-only-client.ts";
import { EngramPlugin } from "../plugin.ts";
import { shown } from "../../tools/run.ts";
import { scratchDir } from "../../util/testing/scratch-dir.ts";

export interface PluginUnderTest {
  hooks: Hooks;
  fake: FakeClient;
  /** Calls the guard refused; a test fails when this is not empty. */
  violations: string[];
  directory: string;
  /** The registered history tools, by name (search tools included once the plugin registers them). */
  tools: Record<string, NonNullable<Hooks["tool"]>[string]>;
}

export interface StartOptions {
  /** Text of the project's opencode-engram.jsonc (may be broken on purpose). */
  projectConfig?: string;
  fake?: FakeClient;
}

export async function startPlugin(options: StartOptions = {}): Promise<PluginUnderTest> {
  const root = scratchDir("unit");
  // The plugin reads the global config folder and the host's data folder from these.
  process.env.XDG_CONFIG_HOME = join(root, "config");
  process.env.XDG_DATA_HOME = join(root, "data");
  const directory = mkdtempSync(join(root, "project-"));
  if (options.projectConfig !== undefined) writeFileSync(join(directory, "opencode-engram.jsonc"), options.projectConfig);
  const fake = options.fake ?? new FakeClient();
  const guarded = readOnlyGuard(fake);
  const input = {
    client: guarded.client,
    directory,
    worktree: directory,
    project: { id: "prj_test", worktree: directory, vcs: "git", time: { created: 1 } },
    serverUrl: new URL("http://127.0.0.1:1/"),
  } as unknown as PluginInput;
  const hooks = await EngramPlugin(input);
  return { hooks, fake, violations: guarded.violations, directory, tools: { ...hooks.tool } };
}

export function toolContext(sessionID: string, directory = "/project"): ToolContext {
  return {
    sessionID,
    messageID: "msg_zzzzzzzzzzzzcaller",
    agent: "build",
    directory,
    worktree: directory,
    abort: new AbortController().signal,
    metadata: () => {},
    ask: async () => {},
  };
}

const STACK_LINE = /\n\s+at /;
/** A lone UTF-16 surrogate: text that cannot be encoded as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export type Outcome = { ok: true; output: string; json: unknown } | { ok: false; message: string; notAnError?: boolean };

/**
 * Checks what a tool call handed back against the host's limits: an answer is compact JSON under
 * MAX_ANSWER_BYTES; an error is a short message with no stack. Returns a problem, or undefined.
 */
export function problemWith(outcome: Outcome): string | undefined {
  if (outcome.ok) {
    if (byteLength(outcome.output) > MAX_ANSWER_BYTES) return `answer of ${byteLength(outcome.output)} bytes`;
    if (outcome.json === undefined) return `answer is not JSON: ${outcome.output.slice(0, 200)}`;
    if (outcome.output.includes("\n")) return "answer spans several lines";
    if (LONE_SURROGATE.test(outcome.output)) return "answer holds a lone surrogate";
    return undefined;
  }
  if (outcome.notAnError) return `threw a non-Error: ${outcome.message.slice(0, 200)}`;
  if (outcome.message.trim() === "") return "empty error message";
  if (STACK_LINE.test(outcome.message)) return `error leaks a stack: ${outcome.message.slice(0, 200)}`;
  if (byteLength(outcome.message) > 4000) return `error of ${byteLength(outcome.message)} bytes`;
  return undefined;
}

class HangError extends Error {}

/** Runs one tool call; a call still pending after `hangMs` is reported as a hang (not a speed check). */
export async function callTool(plugin: PluginUnderTest, name: string, args: unknown, context: ToolContext, hangMs = 60_000): Promise<Outcome> {
  const tool = plugin.tools[name];
  if (!tool) throw new Error(`tool ${name} is not registered`);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HangError(`${name} still running after ${hangMs} ms with ${preview(args)}`)), hangMs);
  });
  let result: unknown;
  try {
    result = await Promise.race([tool.execute(args as never, context), hang]);
  } catch (error) {
    if (error instanceof HangError) throw error;
    if (!(error instanceof Error)) return { ok: false, message: String(error), notAnError: true };
    return { ok: false, message: error.message };
  } finally {
    clearTimeout(timer);
  }
  const output = typeof result === "string" ? result : JSON.stringify(result);
  return { ok: true, output, json: parseOrUndefined(output) };
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function preview(value: unknown): string {
  return shown(value, 120);
}
