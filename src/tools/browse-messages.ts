import { tool, type ToolDefinition } from "@opencode-ai/plugin";
import { browseMessages } from "../history/browse-messages.ts";
import { optionalId } from "./args.ts";
import type { ToolDeps } from "./deps.ts";
import { runTool } from "./run.ts";
import { targetView } from "./target.ts";
import { windowArgs } from "./windows.ts";

const z = tool.schema;

export function createBrowseMessagesTool(deps: ToolDeps): ToolDefinition {
  return tool({
    description: `A chronological window of message previews (user and assistant steps, with tool-call summaries) around one message.
Without message_id: the latest messages. before_message_id / after_message_id continue the window in either direction.
Then: history_pull_message(message_id) for a message's full content.`,
    args: {
      session_id: z.string().optional().describe("Session to read (ses_…). Default: this session."),
      message_id: z.string().optional().describe("Message to centre on (msg_…). Default: the latest."),
      num_before: z.number().int().optional().describe("Earlier messages to include (0-100, default 0)."),
      num_after: z.number().int().optional().describe("Later messages to include (0-100, default 0)."),
    },
    execute(raw, context) {
      return runTool("history_browse_messages", raw, async (args) => {
        const messageId = optionalId(args, "message_id", "msg_");
        const window = windowArgs(args);
        const view = await targetView(deps, args, context, "history_browse_messages");
        const config = deps.config();
        return browseMessages(view, { messageId, ...window }, {
          previewChars: config.browse.preview_chars,
          cap: config.browse.max_messages,
          directory: deps.directory,
        });
      });
    },
  });
}
