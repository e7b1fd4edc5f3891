// `npm run demo`: the plugin inside a real OpenCode host, end to end, with no API key: 1.18.33, or
// with `-- --generation 2` / `--host <version>` another host e2e/hosts.json pins (OpenCode 2.1.2).
// A scripted model (the e2e mock) plays a short coding session in which a decision is made in the
// first turn; the session is compacted; then the demo shows what the agent sees afterwards: the
// chart that replaced the summary, the guidance block, and the history tools finding and reading
// the buried decision. Every tool output printed here is what the real host stored. What is played
// (the project, the turns, the question and its answer) is script.ts; this file is the flow.

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { startHost, type Host, type HostMessage } from "../e2e/harness/host.ts";
import { PINNED_HOSTS, type PinnedHost } from "../e2e/harness/hosts.ts";
import { repoRoot } from "../e2e/harness/paths.ts";
import { lastUserText, systemText, type ChatMessage, type MockResponse, type RecordedRequest } from "../e2e/harness/mock-llm.ts";
import { isToolPart } from "../e2e/harness/types.ts";
import { readToolPart, type ToolCallResult } from "../e2e/harness/tool-call.ts";
import { ANSWER, EARLIER_SESSION, PROJECT_FILES, QUESTION, SEARCH_QUERY, TITLES, TURNS, type Turn } from "./script.ts";

type Json = Record<string, any>;

const GUIDANCE_TITLE = "## Your conversation history";
const WIDTH = 78;
const PREVIEW = 90;

// ---------------------------------------------------------------- output

function section(n: number, title: string): void {
  const head = `── ${n}. ${title} `;
  console.log(`\n${head}${"─".repeat(Math.max(3, WIDTH - head.length))}`);
}

function say(line: string): void {
  console.log(`› ${line}`);
}

function block(text: string, indent = "  "): void {
  for (const line of text.replace(/\s+$/, "").split("\n")) console.log(`${indent}${line}`);
}

function pretty(raw: string | undefined): string {
  if (raw === undefined) return "(no output)";
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

function kb(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KB (${bytes.toLocaleString("en-US")} bytes)`;
}

function oneLine(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The model's side of the question turn: search, pull the best hit, answer. */
function questionResponder(searchAvailable: boolean): (request: RecordedRequest) => MockResponse | undefined {
  return (request) => {
    if (request.kind !== "chat") return undefined;
    const messages = request.body.messages;
    const last = messages.at(-1);
    if (last?.role !== "tool") {
      if (searchAvailable) return { toolCalls: [{ id: "call_demo_search", name: "history_search", args: { query: SEARCH_QUERY, limit: 3 } }] };
      return { toolCalls: [{ id: "call_demo_turns", name: "history_browse_turns", args: { turn_number: 1 } }] };
    }
    const output = toolContent(last);
    const data = parseJson(output);
    switch (last.tool_call_id) {
      case "call_demo_search": {
        const hits = (data?.messages ?? []) as Json[];
        const best = hits.find((m) => m.role === "assistant") ?? hits[0];
        if (!best) return { text: "I could not find that decision in the history." };
        return { toolCalls: [{ id: "call_demo_pull", name: "history_pull_message", args: { message_id: best.message_id } }] };
      }
      case "call_demo_turns": {
        const userId = data?.turns?.[0]?.user?.message_id;
        if (!userId) return { text: "I could not browse the first turn." };
        return { toolCalls: [{ id: "call_demo_window", name: "history_browse_messages", args: { message_id: userId, num_after: 1 } }] };
      }
      case "call_demo_window": {
        const reply = ((data?.messages ?? []) as Json[]).find((m) => m.role === "assistant");
        if (!reply) return { text: "I could not find the first reply." };
        return { toolCalls: [{ id: "call_demo_pull", name: "history_pull_message", args: { message_id: reply.message_id } }] };
      }
      default:
        return { text: ANSWER };
    }
  };
}

function toolContent(message: ChatMessage): string {
  if (typeof message.content === "string") return message.content;
  if (Array.isArray(message.content)) {
    return message.content.map((c: unknown) => (c && typeof c === "object" && "text" in c ? String((c as { text: unknown }).text) : "")).join("");
  }
  return "";
}

function parseJson(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------- helpers over the stored history

function toolLine(messages: HostMessage[], sinceIndex: number): string[] {
  const lines: string[] = [];
  for (const m of messages.slice(sinceIndex)) {
    for (const p of m.parts) {
      if (!isToolPart(p)) continue;
      const input = (p.state.input ?? {}) as Json;
      const target = input.filePath ?? input.path ?? input.command ?? "";
      const shown = typeof target === "string" ? target.replace(/^.*\/project\//, "") : "";
      const output = (p.tool === "bash" || p.tool === "shell") && typeof p.state.output === "string" ? `: ${oneLine(p.state.output, 40)}` : "";
      lines.push(`${p.tool}(${oneLine(shown, 44)}) → ${p.state.status}${output}`);
    }
  }
  return lines;
}

function lastAssistantText(messages: HostMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.info.role !== "assistant") continue;
    const text = m.parts
      .filter((p) => p.type === "text")
      .map((p) => String(p.text ?? ""))
      .join("");
    if (text) return text;
  }
  return "";
}

function summaryText(messages: HostMessage[]): string {
  const summary = messages.filter((m) => m.info.role === "assistant" && m.info.summary === true).at(-1);
  return (summary?.parts ?? [])
    .filter((p) => p.type === "text")
    .map((p) => String(p.text ?? ""))
    .join("");
}

/** Bytes of the request's non-system messages: the conversation as the model receives it. */
function conversationBytes(request: RecordedRequest): number {
  return Buffer.byteLength(JSON.stringify(request.body.messages.filter((m) => m.role !== "system")));
}

function offeredTools(host: Host): string[] {
  return (host.mock.chatRequests().at(-1)?.body.tools ?? []).map((t) => t.function.name);
}

async function playTurn(host: Host, sessionId: string, turn: Turn, label: string): Promise<void> {
  const before = (await host.messages(sessionId)).length;
  host.mock.push(...turn.steps(host.directory, host.generation));
  await host.prompt(sessionId, turn.user);
  const messages = await host.messages(sessionId);
  console.log(`\n  ${label} user:      ${oneLine(turn.user, PREVIEW)}`);
  for (const line of toolLine(messages, before)) console.log(`  ${" ".repeat(label.length)} tool:      ${line}`);
  console.log(`  ${" ".repeat(label.length)} assistant: ${oneLine(lastAssistantText(messages), PREVIEW)}`);
  if (host.mock.pending() !== 0) throw new Error(`the scripted model still has ${host.mock.pending()} unused replies after "${turn.user}"`);
}

function printTool(title: string, result: ToolCallResult): void {
  say(title);
  if (result.status !== "completed") {
    block(`[${result.status}] ${result.error ?? ""}`, "    ");
    return;
  }
  block(pretty(result.raw), "    ");
}

// ---------------------------------------------------------------- main

const USAGE = `usage: npm run demo [-- --generation 1|2 | --host ${PINNED_HOSTS.map((host) => host.version).join("|")}]`;

/**
 * The pinned host (e2e/hosts.json) the flags name: `--host <version>`, or `--generation 1|2` for
 * that generation's first; none given, the first pinned host (1.18.33). Else a usage message.
 */
function hostOf(argv: readonly string[]): PinnedHost | string {
  if (argv.length === 0) return PINNED_HOSTS[0]!;
  const [flag, value, ...rest] = argv.length === 1 && argv[0]!.includes("=") ? [...argv[0]!.split("=", 2)] : argv;
  if (rest.length > 0 || value === undefined) return `${USAGE} (got ${argv.join(" ")})`;
  const host =
    flag === "--host"
      ? PINNED_HOSTS.find((pinned) => pinned.version === value)
      : flag === "--generation"
        ? PINNED_HOSTS.find((pinned) => String(pinned.generation) === value)
        : undefined;
  return host ?? `${USAGE} (got ${argv.join(" ")})`;
}

/** Starts the pinned host the harness's ENGRAM_E2E_HOST names; OpenCode 2 loads dist/, built first. */
async function startDemoHost(pinned: PinnedHost): Promise<Host> {
  process.env.ENGRAM_E2E_HOST = pinned.version;
  if (pinned.generation === 2) {
    execFileSync(process.execPath, [join(repoRoot, "node_modules", "typescript", "bin", "tsc"), "-p", join(repoRoot, "tsconfig.build.json")], {
      stdio: "inherit",
    });
  }
  return startHost({ projectFiles: PROJECT_FILES });
}

export async function main(argv: readonly string[] = []): Promise<number> {
  const pinned = hostOf(argv);
  if (typeof pinned === "string") {
    console.error(pinned);
    return 2;
  }
  const started = Date.now();
  console.log(`opencode-engram demo: a real OpenCode host (opencode serve ${pinned.version}) with this plugin and a scripted model.`);
  console.log("No API key and no LLM: every model reply below is scripted; every tool output is real.");

  section(1, "Start the host");
  say(
    pinned.generation === 2
      ? `building dist/ and starting opencode serve ${pinned.version} with the plugin listed as this checkout's folder…`
      : "starting opencode serve with the plugin from this checkout (the first start installs host packages, ~30-60 s)…",
  );
  let host: Host | undefined;
  try {
    host = await startDemoHost(pinned);
    // Only lines naming this plugin: 1.19.5 also warns that its own @opencode-ai/plugin@1.19.5 is not on npm.
    const errors = host.pluginLoadErrors().filter((line) => line.includes("opencode-engram") || line.includes(repoRoot));
    if (errors.length > 0) throw new Error(`the host did not load the plugin:\n${errors.join("\n")}`);
    say(`host up at ${host.url} after ${((Date.now() - started) / 1000).toFixed(1)} s; scratch project ${host.directory}`);
    host.mock.setResponder((request) => {
      if (request.kind !== "title") return undefined;
      const first = lastUserText(request.body);
      const title = TITLES.find(([pattern]) => pattern.test(first))?.[1];
      return title ? { text: title } : undefined;
    });
    await run(host);
    say(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return 0;
  } catch (err) {
    console.error(`\nDemo failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    if (host) console.error(`--- host log tail ---\n${host.logs().slice(-3000)}`);
    return 1;
  } finally {
    if (host) {
      await host.stop();
      console.log("› host stopped, scratch directories removed.");
    }
  }
}

async function run(host: Host): Promise<void> {
  section(2, "An earlier session");
  const earlier = (await host.createSession()).id;
  await playTurn(host, earlier, EARLIER_SESSION, "1");

  section(3, "A coding session (the decision is made in turn 1)");
  const sessionId = (await host.createSession()).id;
  say(`session ${sessionId}`);
  for (const [i, turn] of TURNS.entries()) await playTurn(host, sessionId, turn, String(i + 1));

  const tools = offeredTools(host);
  const history = (await host.messages(sessionId)).filter((m) => m.info.sessionID === sessionId);
  const historyBytes = Buffer.byteLength(JSON.stringify(history));
  const lastMain = host.mock.chatRequests().at(-1)!;
  const mainChats = host.mock.chatRequests();
  const withGuidance = mainChats.filter((r) => systemText(r.body).includes(GUIDANCE_TITLE)).length;

  section(4, "What every main request carries");
  say(`the model is offered ${tools.length} tools; history tools: ${tools.filter((t) => t.startsWith("history_")).join(", ") || "none"}`);
  say(`${withGuidance} of ${mainChats.length} main requests so far carried this block in their system prompt:`);
  const system = systemText(lastMain.body);
  const at = system.indexOf(GUIDANCE_TITLE);
  if (at >= 0) block(system.slice(at).split("\n\n")[0]!, "    ");
  else say("(guidance block not found in the last request)");

  section(5, "Compaction");
  host.mock.reset();
  if (!(await host.summarize(sessionId))) throw new Error("compaction did not complete");
  say(`stored history of the session:        ${kb(historyBytes)}, ${history.length} messages`);
  say(`the model's last request before it:   ${kb(lastMain.bytes)}; the conversation in it: ${kb(conversationBytes(lastMain))}`);
  say("                                       (the rest is the host's system prompt and tool schemas)");
  const compaction = host.mock.requestsOf("compaction")[0];
  if (compaction) {
    const cap = compaction.body.max_tokens ?? compaction.body.max_completion_tokens;
    say(`the compaction request:               ${kb(compaction.bytes)} in all, output capped at ${cap ?? "?"} tokens`);
    say("its only user message:");
    const userMessage = compaction.body.messages.find((m) => m.role === "user");
    block(toolContent(userMessage ?? { role: "user" }), "    ");
    say(`the summarizer answered ${JSON.stringify(compaction.response?.text ?? "")}; the plugin stored this chart as the summary instead:`);
  } else {
    // OpenCode 2: the plugin's compaction hook sets the result, so the host makes no model call.
    if (host.mock.requests.length > 0) throw new Error(`the compaction made ${host.mock.requests.length} model requests, none of them a summarizer's`);
    say("the compaction request:               none: the plugin's compaction hook gave the host its chart, so no model was called");
  }

  section(6, "The chart (the stored summary, verbatim)");
  const chart = summaryText(await host.messages(sessionId));
  block(chart);
  console.log("");
  const buried = !chart.includes("120 requests per minute");
  say(`turn 1 is in the chart only as a preview: the limit it set ("120 requests per minute per API key") is ${buried ? "not in the chart" : "in the chart"}.`);

  section(7, "After compaction: the agent looks up the buried decision");
  const searchAvailable = tools.includes("history_search");
  if (!searchAvailable) say("history_search is not available in this build yet: the model browses turn 1 instead.");
  console.log(`\n  user: ${QUESTION}`);
  host.mock.reset();
  host.mock.setResponder(questionResponder(searchAvailable));
  await host.prompt(sessionId, QUESTION);
  host.mock.setResponder(undefined);
  const afterQuestion = await host.messages(sessionId);
  const firstAfter = host.mock.chatRequests()[0];
  if (firstAfter) {
    say(`the model's next request: the conversation in it is ${kb(conversationBytes(firstAfter))}, the compacted past is the chart:`);
    for (const m of firstAfter.body.messages) {
      if (m.role === "system") continue;
      console.log(
        `    ${m.role.padEnd(9)} ${oneLine(toolContent(m) || (m.tool_calls ? `calls ${m.tool_calls.map((c) => c.function.name).join(", ")}` : ""), WIDTH - 14)}`,
      );
    }
  }
  if (searchAvailable) {
    printTool('history_search(query="token bucket sliding window", limit=3)', readToolPart(afterQuestion, "call_demo_search"));
  } else {
    printTool("history_browse_turns(turn_number=1)", readToolPart(afterQuestion, "call_demo_turns"));
    printTool("history_browse_messages(message_id=<turn 1 user message>, num_after=1)", readToolPart(afterQuestion, "call_demo_window"));
  }
  const pulled = readToolPart(afterQuestion, "call_demo_pull");
  const pulledId = (pulled.part.state.input as Json | undefined)?.message_id;
  printTool(`history_pull_message(message_id="${pulledId}")`, pulled);
  console.log(`\n  assistant: ${lastAssistantText(afterQuestion)}`);
  if (!pulled.raw?.includes("120 requests per minute per API key")) throw new Error("the pulled message does not hold the decision");

  section(8, "Other sessions of the project");
  if (!offeredTools(host).includes("history_sessions")) {
    say("history_sessions is not available in this build yet.");
    return;
  }
  printTool(
    "history_sessions()",
    await host.callTool(sessionId, "history_sessions", {}, { prompt: "Which sessions does this project have?", reply: "Two sessions." }),
  );
}
