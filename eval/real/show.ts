// Prints messages of the eval's sessions in full (every part's text, each tool call's input and output),
// so whoever labels the real-session eval judges a message on everything it says:
//   node --import ./scripts/ts-loader.mjs eval/real/show.ts msg_… [msg_…]

import { fileURLToPath } from "node:url";
import type { HistoryMessage, HistoryPart } from "../../src/history/types.ts";
import { toolCallSignature, toolResultText } from "../../src/history/tool-text.ts";
import { loadEvalSessions, type RealSession } from "./sessions.ts";

function formatPart(part: HistoryPart): string {
  switch (part.kind) {
    case "text":
      return `[text${part.synthetic ? ", synthetic" : ""}${part.ignored ? ", ignored" : ""}]\n${part.text}`;
    case "reasoning":
      return `[reasoning]\n${part.text}`;
    case "tool": {
      const result = toolResultText(part);
      return `[tool ${part.tool}, ${part.status}]\n${toolCallSignature(part)}${result === undefined ? "" : `\n[${part.status === "error" ? "error" : "output"}]\n${result}`}`;
    }
    case "file":
      return `[file] ${part.filename ?? part.path ?? part.url ?? part.mime}`;
    case "patch":
      return `[patch] ${part.files.join(", ")}`;
    case "agent":
      return `[agent] ${part.name}`;
    case "subtask":
      return `[subtask ${part.agent}] ${part.description}\n${part.prompt}`;
    case "compaction":
      return `[compaction${part.auto ? ", auto" : ""}]`;
  }
}

/** One message as plain text: a header line (session, id, role, flags), then each part in order. */
export function formatMessage(sessionName: string, message: HistoryMessage): string {
  const flags = [
    message.role,
    message.summary && "summary",
    message.compactionContinue && "compaction-continue",
    message.error && `error ${message.error.name}`,
  ];
  const header = `=== ${sessionName}/${message.id} (${flags.filter(Boolean).join(", ")})`;
  return [header, ...message.parts.map(formatPart)].join("\n");
}

/** The message with this id and the name of its session, if the corpus holds it. */
export function findMessage(sessions: readonly RealSession[], id: string): { session: RealSession; message: HistoryMessage } | undefined {
  for (const session of sessions) {
    const message = session.messages.find((m) => m.id === id);
    if (message) return { session, message };
  }
  return undefined;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sessions = loadEvalSessions();
  for (const id of process.argv.slice(2)) {
    const found = findMessage(sessions, id);
    console.log(found ? formatMessage(found.session.name, found.message) : `=== ${id}: not in the eval's sessions`);
    console.log();
  }
}
