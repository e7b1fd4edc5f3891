// For studying why questions miss (`npm run eval -- --half tuning --study [kind]`): per question of
// that kind not answered first, its rank, what its answers are (the kind of message and the head of
// its text) and what ranked above them, so misses can be sorted by cause. Only for the tuning half:
// the check half's questions are not read before a rule is fixed (docs/search-notes.md).

import type { HistoryMessage } from "../../src/history/types.ts";
import { toolCallSignature, toolResultText } from "../../src/history/tool-text.ts";
import type { RealQuestionKind } from "./questions.ts";
import type { Answer } from "./run-real-eval.ts";
import type { RealSession } from "./sessions.ts";
import { findMessage } from "./show.ts";

const HEAD = 160;
const oneLine = (text: string, chars = HEAD) => text.replace(/\s+/g, " ").trim().slice(0, chars);

/** What a message is, for sorting misses: summary, user, text, reasoning or tool output, with its size. */
function messageKind(message: HistoryMessage): string {
  if (message.summary) return "summary";
  const kinds = new Set<string>();
  let chars = 0;
  for (const part of message.parts) {
    if (part.kind === "text" || part.kind === "reasoning") {
      kinds.add(part.kind === "text" && part.synthetic ? "synthetic" : part.kind);
      chars += part.text.length;
    } else if (part.kind === "tool") {
      kinds.add(`tool ${part.tool}`);
      chars += (toolResultText(part) ?? "").length + toolCallSignature(part).length;
    }
  }
  return `${message.role} ${[...kinds].join("+") || "empty"} ${chars}c`;
}

/** The head of what a message says: its text parts, else its tool calls and their outputs. */
function messageHead(message: HistoryMessage, chars = HEAD): string {
  const texts = message.parts.flatMap((p) => (p.kind === "text" ? [p.text] : []));
  if (texts.length > 0) return oneLine(texts.join(" "), chars);
  const tools = message.parts.flatMap((p) => (p.kind === "tool" ? [`${toolCallSignature(p)} => ${toolResultText(p) ?? ""}`] : []));
  return oneLine(tools.join(" | "), chars);
}

function describe(sessions: readonly RealSession[], id: string): string {
  const found = findMessage(sessions, id);
  return found ? `${id.slice(-6)} (${messageKind(found.message)}) ${messageHead(found.message)}` : `${id}: not found`;
}

/** Per answer of `kind` not ranked first, the question, its answers (the first two) and the ids above them (the first five). */
export function formatStudy(answers: readonly Answer[], sessions: readonly RealSession[], kind: RealQuestionKind): string {
  const lines: string[] = [];
  for (const a of answers) {
    if (a.question.kind !== kind || a.rank === 1) continue;
    lines.push(`\n[${a.scope} rank ${a.rank ?? "-"}] ${a.question.query}  (${a.question.session})`);
    for (const id of a.question.answers.slice(0, 2)) lines.push(`   answer ${describe(sessions, id)}`);
    if (a.question.answers.length > 2) lines.push(`   … ${a.question.answers.length - 2} more answers`);
    for (const [i, id] of a.above.slice(0, 5).entries()) lines.push(`   above  [hit ${a.aboveHits[i]}] ${describe(sessions, id)}`);
  }
  return lines.join("\n");
}
