import { tool, type ToolDefinition } from "@opencode-ai/plugin";
import { browseTurns } from "../history/browse-turns.ts";
import { optionalInt } from "./args.ts";
import type { ToolDeps } from "./deps.ts";
import { runTool } from "./run.ts";
import { targetView } from "./target.ts";
import { windowArgs } from "./windows.ts";

const z = tool.schema;

export function createBrowseTurnsTool(deps: ToolDeps): ToolDefinition {
  return tool({
    description: `Overview of a session's history, one entry per user turn: what the user asked, how the assistant answered, which tools ran (with errors) and which files changed. The cheapest way to see what happened.
Without turn_number: the latest turns (num_before more before it). With turn_number: a window around that turn.
Then: history_browse_messages(message_id=<user.message_id>) for the turn's messages, history_pull_message for full text, history_search to find a topic.`,
    args: {
      session_id: z.string().optional().describe("Session to read (ses_…). Default: this session. Use history_sessions to find others."),
      turn_number: z.number().int().optional().describe("Turn to centre on (1 = first). Default: the latest."),
      num_before: z.number().int().optional().describe("Earlier turns to include (0-100, default 0)."),
      num_after: z.number().int().optional().describe("Later turns to include (0-100, default 0)."),
    },
    execute(raw, context) {
      return runTool("history_browse_turns", raw, async (args) => {
        // turn_index is the seed plugin's name for the same parameter.
        const turn = optionalInt(args, "turn_number", { min: 1, max: Number.MAX_SAFE_INTEGER }) ??
          optionalInt(args, "turn_index", { min: 1, max: Number.MAX_SAFE_INTEGER });
        const window = windowArgs(args);
        const view = await targetView(deps, args, context, "history_browse_turns");
        const config = deps.config();
        return browseTurns(view, { turnNumber: turn?.value, ...window }, {
          previewChars: config.browse.preview_chars,
          cap: config.browse.max_turns,
          directory: deps.directory,
        });
      });
    },
  });
}
