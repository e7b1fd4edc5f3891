// A whole session as Markdown for a person: a header, then every turn in order with the user's
// words and the answers as written; tool calls, reasoning and host-added text folded to a few
// lines each, naming the command that prints the rest. Built on the core's view (turns, previews,
// tool texts, cuts): the same reading of a session as the tools and `show`.

import { attachments, relativePath } from "../history/attachments.ts";
import { isoTime } from "../history/compact.ts";
import { isCompactionSummary } from "../history/summaries.ts";
import { inputString, toolCallSignature, toolResultText } from "../history/tool-text.ts";
import type { ToolVisibility } from "../history/tool-visibility.ts";
import { cutWithMarker } from "../history/text.ts";
import { visibleTurns } from "../history/turns.ts";
import type { HistoryMessage, HistoryPart, SessionInfo, ToolPart } from "../history/types.ts";
import type { SessionView } from "../history/view.ts";

/** Characters kept of each folded piece; the host's own compaction request keeps 2,000 of a tool result. */
export const FOLD = { toolInput: 1_000, toolOutput: 2_000, reasoning: 1_000, hostText: 1_000, prompt: 1_000, error: 1_000 } as const;

export interface MarkdownOptions {
  visibility: ToolVisibility;
  /** The session's directory: attached and changed files are shown relative to it. */
  directory: string;
}

/** "2026-11-30 06:22:53 UTC", or undefined without a time. */
function time(epochMs: number | undefined): string | undefined {
  const iso = isoTime(epochMs);
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC` : undefined;
}

/** A fenced code block whose fence no run of backticks in `text` can close. */
export function fenced(raw: string, info = ""): string {
  const text = raw.replace(/\n$/, "");
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${text}\n${fence}`;
}

/** Every line as a Markdown quote. */
function quoted(text: string): string {
  return text
    .split("\n")
    .map((line) => (line ? `> ${line}` : ">"))
    .join("\n");
}

function code(text: string): string {
  return text.includes("`") ? `\`\` ${text} \`\`` : `\`${text}\``;
}

/** The command that prints a whole part, for a piece that was folded. */
function showPart(message: HistoryMessage, partId: string): string {
  return code(`opencode-engram show ${message.id} --part ${partId}`);
}

interface Folded {
  text: string;
  /** A line saying what was left out and how to read it, when something was. */
  note?: string;
}

function fold(text: string, max: number, message: HistoryMessage, partId: string): Folded {
  const cut = cutWithMarker(text, max);
  if (cut.more === 0) return { text };
  return { text: cut.text, note: `_Folded: ${cut.more.toLocaleString("en-US")} more characters; the whole part: ${showPart(message, partId)}_` };
}

/** The subagent session a `task` (OpenCode 2: `subagent`) call ran, from its input or its output. */
function subagentSession(part: ToolPart): string | undefined {
  const named = inputString(part.input, "task_id", "session_id", "sessionID");
  if (named?.startsWith("ses_")) return named;
  return /<task id="(ses_[A-Za-z0-9_-]+)"/.exec(part.output ?? "")?.[1];
}

function toolBlock(part: ToolPart, message: HistoryMessage, options: MarkdownOptions): string[] {
  const out: string[] = [`**Tool ${code(part.tool)}** · ${part.status} · ${code(part.id)}`];
  if (options.visibility.input(part.tool)) {
    const input = fold(toolCallSignature(part), FOLD.toolInput, message, part.id);
    out.push(fenced(input.text));
    if (input.note) out.push(input.note);
  } else out.push("_Input not shown (the `show_tool_input` setting hides it)._");
  const result = toolResultText(part);
  if (result) {
    if (options.visibility.output(part.tool)) {
      const output = fold(result, FOLD.toolOutput, message, part.id);
      out.push(`${part.status === "error" ? "Error" : "Output"}:`, fenced(output.text));
      if (output.note) out.push(output.note);
    } else out.push(`_Output not shown (the \`show_tool_output\` setting hides ${code(part.tool)} output)._`);
  }
  const child = part.tool === "task" || part.tool === "subagent" ? subagentSession(part) : undefined;
  if (child) out.push(`Subagent session: ${code(child)} (${code(`opencode-engram export ${child}`)})`);
  return out;
}

function partBlock(part: HistoryPart, message: HistoryMessage, options: MarkdownOptions): string[] {
  switch (part.kind) {
    case "text": {
      if (part.ignored || part.text.trim() === "") return [];
      if (!part.synthetic) return [part.text];
      const host = fold(part.text, FOLD.hostText, message, part.id);
      return ["_Added by the host:_", fenced(host.text), ...(host.note ? [host.note] : [])];
    }
    case "reasoning": {
      if (part.text.trim() === "") return [];
      const reasoning = fold(part.text, FOLD.reasoning, message, part.id);
      return [quoted(`_Reasoning:_\n${reasoning.text}`), ...(reasoning.note ? [reasoning.note] : [])];
    }
    case "tool":
      return toolBlock(part, message, options);
    case "patch":
      return part.files.length > 0 ? [`Files changed: ${part.files.map((file) => code(relativePath(file, options.directory))).join(", ")}`] : [];
    case "agent":
      return [`**Agent** ${code(`@${part.name}`)}`];
    case "subtask": {
      const prompt = fold(part.prompt, FOLD.prompt, message, part.id);
      const head = `**Subtask** for agent ${code(part.agent)}${part.description ? `: ${part.description}` : ""}`;
      return [head, quoted(prompt.text), ...(prompt.note ? [prompt.note] : [])];
    }
    case "compaction":
      return [`**Compaction requested** (${part.auto ? "automatic, the context was full" : "manual"})`];
    default:
      // Files are listed once per message (attachments).
      return [];
  }
}

/** A compaction summary: what the model was given in place of the conversation before it. */
function summaryBlock(message: HistoryMessage, when: string[]): string[] {
  const text = message.parts
    .filter((part) => part.kind === "text" && !part.ignored)
    .map((part) => (part.kind === "text" ? part.text : ""))
    .join("\n\n");
  const carried = message.role === "user" ? " (carried in as a user message)" : "";
  return [
    [`**Compaction summary**${carried}`, ...when].join(" · "),
    "_The model was given this in place of the conversation before it; every message above stays stored._",
    quoted(text.trimEnd() || "(empty)"),
  ];
}

function messageBlock(message: HistoryMessage, options: MarkdownOptions): string[] {
  const when = [time(message.created), code(message.id)].filter((piece): piece is string => piece !== undefined);
  if (isCompactionSummary(message)) return summaryBlock(message, when);
  const who =
    message.role === "assistant"
      ? `**Assistant**${message.agent ? ` (${message.agent})` : ""}`
      : message.compactionContinue
        ? "**Host**: continue after compaction"
        : message.hostWritten
          ? "**Host** (added to the conversation)"
          : "**User**";
  const out = [[who, ...when].join(" · ")];
  for (const part of message.parts) out.push(...partBlock(part, message, options));
  const attached = attachments(message, options.directory);
  if (attached) out.push(`Attached: ${attached.map(code).join(", ")}`);
  if (message.error) {
    const detail = [message.error.name, message.error.message].filter(Boolean).join(": ");
    out.push(`**Error:** ${cutWithMarker(detail, FOLD.error).text}`);
  }
  return out;
}

function header(session: SessionInfo, view: SessionView, turns: number): string[] {
  const facts = [
    `- Session: ${code(session.id)}`,
    session.directory ? `- Project directory: ${code(session.directory)}` : undefined,
    session.created !== undefined ? `- Created: ${time(session.created)}` : undefined,
    session.updated !== undefined ? `- Updated: ${time(session.updated)}` : undefined,
    session.parentId ? `- Subagent session of ${code(session.parentId)}${session.agent ? ` (agent ${code(session.agent)})` : ""}` : undefined,
    `- ${turns} ${turns === 1 ? "turn" : "turns"}, ${view.messages.length} ${view.messages.length === 1 ? "message" : "messages"}`,
  ];
  return [`# ${session.title.trim() || "Untitled session"}`, facts.filter((line): line is string => line !== undefined).join("\n")];
}

/** The session as one Markdown document (blocks separated by blank lines, ending in a newline). */
export function sessionMarkdown(session: SessionInfo, view: SessionView, options: MarkdownOptions): string {
  const turns = visibleTurns(view);
  const blocks = header(session, view, turns.filter((turn) => turn.number > 0).length);
  for (const turn of turns) {
    blocks.push(turn.number === 0 ? "## Before the first prompt" : `## Turn ${turn.number}`);
    for (let index = turn.start; index < turn.end; index++) blocks.push(...messageBlock(view.messages[index]!, options));
  }
  return `${blocks.join("\n\n")}\n`;
}
