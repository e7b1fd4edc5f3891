// `opencode-engram show <id>`: a message in full, or a session's turns.

import { browseTurns, type TurnEntry } from "../history/browse-turns.ts";
import { HistoryError } from "../history/errors.ts";
import { sessionOfMessage } from "../store/figures.ts";
import { pullMessage, type Section } from "../history/pull-message.ts";
import { pullPart } from "../history/pull-part.ts";
import { buildView, type SessionView } from "../history/view.ts";
import { UsageError, type Parsed } from "./argv.ts";
import { CommandError, EXIT, type CommandContext } from "./command.ts";
import type { History } from "./history.ts";
import type { Io } from "./io.ts";
import { indent } from "./render.ts";

export const SHOW_FLAGS = { values: ["part"], switches: ["turns"] } as const;

/** A person reads whole sections; the answer-size fitting of the core still applies. */
const SECTION_CHARS = 1_000_000;
const ALL_TURNS = 1_000_000;

/** The whole session as the tools see it from another session; exit 4 when the store lacks it. */
export async function sessionView(history: History, sessionId: string): Promise<SessionView> {
  try {
    await history.source.getSession(sessionId);
  } catch {
    throw new CommandError(`session ${sessionId} is not in the store (${history.store.path})`, EXIT.notFound);
  }
  return buildView(sessionId, await history.source.loadMessages(sessionId), false);
}

function printSection(io: Io, section: Section): void {
  const { type, content, input, part_id: partId, ...rest } = section as Record<string, unknown>;
  const facts = Object.entries(rest)
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(" ");
  io.out(io.style("accent", `── ${String(type)}${facts ? ` ${facts}` : ""}${partId ? ` ${String(partId)}` : ""}`));
  if (input !== undefined) io.out(indent(typeof input === "string" ? input : JSON.stringify(input, null, 2), "  "));
  if (typeof content === "string") io.out(content);
}

/** A part's whole text, page after page as history_pull_part gives it. */
function wholePart(view: SessionView, messageId: string, partId: string, history: History): { type: string; tool?: string; content: string } {
  let content = "";
  for (let offset = 0; ; ) {
    const page = pullPart(view, { messageId, partId, offset, limit: SECTION_CHARS }, history.visibility);
    content += page.content;
    if (page.next_offset === undefined) return { type: page.type, tool: page.tool, content };
    offset = page.next_offset;
  }
}

function printTurn(io: Io, turn: TurnEntry): void {
  io.out(`${io.style("bold", `Turn ${turn.turn_number}`)}  ${io.style("dim", turn.user?.message_id ?? "")}`);
  if (turn.user) io.out(`  ${io.style("accent", "user")}       ${turn.user.preview}`);
  if (turn.user?.attachment) io.out(io.style("dim", `             attached: ${turn.user.attachment.join(", ")}`));
  const answer = turn.assistant;
  if (!answer) return;
  io.out(`  ${io.style("accent", "assistant")}  ${answer.preview}`);
  const tools = answer.tool ? `${answer.tool.calls.join(", ")} (${answer.tool.outcome})` : "";
  const modified = answer.modified ? `modified ${answer.modified.join(", ")}` : "";
  const facts = [`${answer.total_messages} messages`, tools, modified].filter(Boolean).join(" · ");
  io.out(io.style("dim", `             ${facts}`));
}

export async function showCommand(parsed: Parsed, ctx: CommandContext): Promise<number> {
  const [id, ...extra] = parsed.positionals;
  if (!id || extra.length > 0) throw new UsageError("show needs one id: opencode-engram show <msg_…|ses_…> [--turns]");
  if (!id.startsWith("msg_") && !id.startsWith("ses_")) throw new UsageError(`show needs a message id (msg_…) or a session id (ses_…), got ${id}`);
  const partId = parsed.values.get("part");
  if (partId !== undefined && (!id.startsWith("msg_") || parsed.switches.has("turns")))
    throw new UsageError("--part goes with a message id (show <msg_…> --part <prt_…>), not with a session id or --turns");
  const history = await ctx.history(parsed);
  const { io } = ctx;
  const json = parsed.switches.has("json");
  const sessionId = id.startsWith("ses_") ? id : await sessionOfMessage(history.store, id);
  if (!sessionId) throw new CommandError(`message ${id} is not in the store (${history.store.path})`, EXIT.notFound);
  const view = await sessionView(history, sessionId);
  const directory = (await history.source.getSession(sessionId)).directory ?? history.root;
  if (id.startsWith("ses_") || parsed.switches.has("turns")) {
    const config = history.config.browse;
    const turns = browseTurns(view, { numBefore: ALL_TURNS, numAfter: 0 }, { previewChars: config.preview_chars, cap: ALL_TURNS, directory });
    if (json) io.out(JSON.stringify({ session_id: sessionId, ...turns }));
    else {
      io.out(io.style("dim", `${sessionId}  ${directory}`));
      for (const turn of turns.turns) printTurn(io, turn);
      if (turns.note) io.err(turns.note);
    }
    return EXIT.ok;
  }
  if (partId !== undefined) {
    let part: ReturnType<typeof wholePart>;
    try {
      part = wholePart(view, id, partId, history);
    } catch (error) {
      if (error instanceof HistoryError && /not found/i.test(error.message)) throw new CommandError(error.message, EXIT.notFound);
      throw error;
    }
    if (json) io.out(JSON.stringify({ session_id: sessionId, message_id: id, part_id: partId, ...part }));
    else io.out(part.content);
    return EXIT.ok;
  }
  let message: ReturnType<typeof pullMessage>;
  try {
    message = pullMessage(view, id, { sectionChars: SECTION_CHARS, visibility: history.visibility, directory });
  } catch (error) {
    if (error instanceof HistoryError) throw new CommandError(error.message, EXIT.notFound);
    throw error;
  }
  if (json) io.out(JSON.stringify({ session_id: sessionId, ...message }));
  else {
    const facts = [
      `turn ${message.turn_number}`,
      message.role,
      message.time?.replace("T", " ").slice(0, 19),
      message.agent,
      message.summary ? "summary" : "",
      message.error,
    ].filter(Boolean);
    io.out(`${io.style("bold", message.message_id)}  ${facts.join("  ")}  ${io.style("dim", sessionId)}`);
    for (const section of message.sections) printSection(io, section);
    if (message.note) io.err(message.note);
  }
  return EXIT.ok;
}
