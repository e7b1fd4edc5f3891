// Which messages OpenCode 2.1.2 will keep beside the summary, told before it says. Its compaction
// picks the first kept message (the row's `metadata.keepID`) before it runs the `compaction` hook,
// and the hook is not told: the chart the hook builds must not cite a kept message, since the
// caller's own view hides the kept tail (store/v2/map.ts). This is 2.1.2's choice, read from its
// bundle (SessionCompaction: rP, wP, dm; the checkpoint text QK, YK; the estimate ji):
// - the candidates are the messages after the latest completed compaction that render as text in
//   the checkpoint (a compaction or system message renders none);
// - walking back from the newest, as many as fit in `keep` tokens (15,000 unless configured), a
//   message's tokens being round(length / 4) of its rendered text; at least the newest;
// - the kept tail starts at the last user prompt at or before the first of those, when that is not
//   the first candidate; else at the last user prompt, when that is not the first candidate; else
//   at the first candidate when the previous compaction kept a tail; else nothing is kept.
// The rendering here follows QK over this plugin's view of the rows, which drops what a row's
// tokens barely move (a skill's name, a host row's type): near the budget's edge it can pick
// another turn's start than the host does.

import type { HistoryMessage, HistoryPart } from "../history/types.ts";

/** 2.1.2's default `keep` of its session-compaction settings, in estimated tokens. */
const KEEP_TOKENS = 15_000;
/** The checkpoint cuts a tool result or shell output after this many code points (YK). */
const OUTPUT_CODE_POINTS = 1250;

function truncated(text: string): string {
  const points = Array.from(text);
  return points.length <= OUTPUT_CODE_POINTS ? text : `${points.slice(0, OUTPUT_CODE_POINTS).join("")}\n[truncated]`;
}

function assistantLines(part: HistoryPart): string[] {
  if (part.kind === "text") return [`[Assistant]: ${part.text}`];
  if (part.kind === "reasoning") return part.text ? [`[Assistant reasoning]: ${part.text}`] : [];
  if (part.kind !== "tool") return [];
  const call = `[Assistant tool call]: ${part.tool}(${typeof part.input === "string" ? part.input : JSON.stringify(part.input)})`;
  if (part.status === "completed") return [call, `[Tool result]: ${truncated(part.output ?? "")}`];
  if (part.status === "error") return [call, `[Tool error]: ${part.error ?? ""}`];
  return [call];
}

/** The message as 2.1.2's checkpoint renders it; empty for what it leaves out. */
function rendered(message: HistoryMessage): string {
  if (message.summary || message.agent === "compaction") return "";
  if (message.role === "assistant") return message.parts.flatMap(assistantLines).join("\n");
  if (message.hostWritten) {
    const shell = message.parts.find((part) => part.kind === "tool");
    if (shell?.kind === "tool") return `[Shell]: ${(shell.input as { command?: string } | undefined)?.command ?? ""}\n${truncated(shell.output ?? "")}`;
    return message.parts.map((part) => (part.kind === "text" ? `[Synthetic context]: ${part.text}` : "")).join("");
  }
  const lines: string[] = [];
  for (const part of message.parts) {
    if (part.kind === "text" && part.synthetic) lines.push(`[Skill activated: ]\n${part.text}`);
  }
  const prompt = message.parts.find((part) => part.kind === "text" && !part.synthetic);
  lines.push(`[User]: ${prompt?.kind === "text" ? prompt.text : ""}`);
  for (const part of message.parts) if (part.kind === "file") lines.push(`[Attached ${part.mime}: ${part.filename ?? part.url ?? "inline attachment"}]`);
  return lines.join("\n");
}

const tokens = (text: string): number => Math.max(0, Math.round(text.length / 4));

/** A user prompt: the person's message, not one the host wrote. */
const isPrompt = (message: HistoryMessage): boolean => message.role === "user" && !message.hostWritten;

/**
 * The id of the first message 2.1.2 will keep when it compacts the session now, or undefined when
 * it will keep none. `messages` are the session's, in order, as the store holds them.
 */
export function keptTailStart(messages: readonly HistoryMessage[], keep = KEEP_TOKENS): string | undefined {
  let last = messages.length - 1;
  while (last >= 0 && !messages[last]!.summary) last--;
  const previous = last >= 0 ? messages[last]!.parts.find((part) => part.kind === "compaction") : undefined;
  const candidates = messages
    .slice(last + 1)
    .map((message) => ({ message, tokens: tokens(rendered(message)), text: rendered(message) }))
    .filter((candidate) => candidate.text !== "");
  if (candidates.length === 0) return undefined;
  let first = candidates.length;
  let total = 0;
  while (first > 0 && total + candidates[first - 1]!.tokens <= keep) total += candidates[--first]!.tokens;
  first = Math.min(first, candidates.length - 1);
  let start = candidates.findLastIndex((candidate, index) => index <= first && isPrompt(candidate.message));
  if (start <= 0) start = candidates.findLastIndex((candidate) => isPrompt(candidate.message));
  if (start <= 0) start = previous?.kind === "compaction" && previous.tailStartId !== undefined ? 0 : -1;
  return start >= 0 ? candidates[start]!.message.id : undefined;
}
