// The four tools that read one session's view (browse turns or messages, pull a message or a
// part): each checks the caller may read the session, takes the view its call may see and
// answers from history/.

import { tool, type ToolDefinition } from "@opencode-ai/plugin";
import { browseMessages } from "../history/browse-messages.ts";
import { browseTurns } from "../history/browse-turns.ts";
import { pullMessage } from "../history/pull-message.ts";
import { pullPart } from "../history/pull-part.ts";
import type { SessionView } from "../history/view.ts";
import type { ToolDeps } from "./deps.ts";
import { id, integer, integerUpTo, sessionParam, windowParams } from "./params.ts";
import { type Aliases, type Parsed, runTool, type Shape } from "./run.ts";
import { type AskContext, mayRead } from "./reach.ts";

/** Turns shown when neither turn_number nor num_before is given. */
export const RECENT_TURNS = 10;
/** Highest turn_number the schema admits; no session has this many turns. */
const MAX_TURN_NUMBER = 1_000_000;
/** Page sizes the model may ask for; each answer is also capped in bytes. */
const MIN_PAGE_CHARS = 1_000;
const MAX_PAGE_CHARS = 40_000;
/** Highest offset the schema admits; a part past it would not have been stored. */
const MAX_OFFSET = 1_000_000_000;

export const browseTurnsArgs = {
  session_id: sessionParam,
  turn_number: integerUpTo(1, MAX_TURN_NUMBER).optional().describe(`Default: the ${RECENT_TURNS} turns before this one`),
  ...windowParams,
};

const browseMessagesArgs = {
  session_id: sessionParam,
  message_id: id("msg_").optional().describe("Centre here. Default: the latest"),
  ...windowParams,
};

const pullMessageArgs = { session_id: sessionParam, message_id: id("msg_") };

const pullPartArgs = {
  session_id: sessionParam,
  message_id: id("msg_"),
  part_id: id("prt_"),
  offset: integerUpTo(0, MAX_OFFSET).optional().describe("From next_offset"),
  limit: integer(MIN_PAGE_CHARS, MAX_PAGE_CHARS).optional().describe("Characters per page"),
};

/** The session named by `session_id`, or the calling session; its own view hides the live context. */
async function targetView(
  deps: ToolDeps,
  args: { session_id?: string | undefined },
  context: AskContext & { abort?: AbortSignal },
  tool: string,
): Promise<SessionView> {
  const sessionId = args.session_id ?? context.sessionID;
  await mayRead(deps.source, sessionId, context, tool);
  const messages = await deps.source.loadMessages(sessionId, context.abort ? { signal: context.abort } : {});
  return deps.views.view(sessionId, messages, sessionId === context.sessionID);
}

/** A tool answering from the view of the session its `session_id` names (else the caller's). */
function viewTool<S extends Shape & { session_id: typeof sessionParam }>(
  deps: ToolDeps,
  name: string,
  description: string,
  args: S,
  answer: (view: SessionView, args: Parsed<S>) => unknown,
  aliases?: Aliases,
): ToolDefinition {
  const schema = tool.schema.object<S>(args);
  return tool({
    description,
    args,
    execute: (raw, context) => runTool<S>(name, schema, raw, async (parsed) => answer(await targetView(deps, parsed, context, name), parsed), aliases),
  });
}

export function createBrowseTurnsTool(deps: ToolDeps): ToolDefinition {
  const description = "One entry per user turn: request, answer, tools run (errors too), files changed. The cheapest overview.";
  return viewTool(
    deps,
    "history_browse_turns",
    description,
    browseTurnsArgs,
    (view, args) => {
      const config = deps.config();
      const around = args.turn_number !== undefined;
      const request = {
        turnNumber: args.turn_number,
        numBefore: args.num_before ?? (around ? 0 : RECENT_TURNS - 1),
        numAfter: args.num_after ?? 0,
        skipCallingTurn: true,
      };
      return browseTurns(view, request, { previewChars: config.browse.preview_chars, cap: config.browse.max_turns, directory: deps.directory });
    },
    // turn_index is the seed plugin's name for turn_number.
    { turn_index: "turn_number" },
  );
}

export function createBrowseMessagesTool(deps: ToolDeps): ToolDefinition {
  const description = "Message previews in order around one message, with tool-call summaries; before_message_id / after_message_id page on.";
  return viewTool(deps, "history_browse_messages", description, browseMessagesArgs, (view, args) => {
    const config = deps.config();
    const request = { messageId: args.message_id, numBefore: args.num_before ?? 0, numAfter: args.num_after ?? 0 };
    return browseMessages(view, request, { previewChars: config.browse.preview_chars, cap: config.browse.max_messages, directory: deps.directory });
  });
}

export function createPullMessageTool(deps: ToolDeps): ToolDefinition {
  const description = "One message in full: text, reasoning, tool calls with input and output, files. A part cut short is read whole by history_pull_part.";
  return viewTool(deps, "history_pull_message", description, pullMessageArgs, (view, args) =>
    pullMessage(view, args.message_id, { sectionChars: deps.config().pull.section_chars, visibility: deps.visibility(), directory: deps.directory }),
  );
}

export function createPullPartTool(deps: ToolDeps): ToolDefinition {
  return viewTool(deps, "history_pull_part", "One part in full (text, reasoning, a tool call with its output), in pages.", pullPartArgs, (view, args) => {
    const request = { messageId: args.message_id, partId: args.part_id, offset: args.offset ?? 0, limit: args.limit ?? deps.config().pull.part_page_chars };
    return pullPart(view, request, deps.visibility());
  });
}
