import { tool, type ToolDefinition } from "@opencode-ai/plugin";
import { browseMessages } from "../history/browse-messages.ts";
import type { ToolDeps } from "./deps.ts";
import { id, sessionParam, windowParams } from "./params.ts";
import { runTool } from "./run.ts";
import { targetView } from "./target.ts";

const z = tool.schema;

const browseMessagesArgs = {
  session_id: sessionParam,
  message_id: id("msg_").optional().describe("Centre here. Default: the latest"),
  ...windowParams,
};
const schema = z.object(browseMessagesArgs);

export function createBrowseMessagesTool(deps: ToolDeps): ToolDefinition {
  return tool({
    description: "Message previews in order around one message, with tool-call summaries; before_message_id / after_message_id page on.",
    args: browseMessagesArgs,
    execute(raw, context) {
      return runTool("history_browse_messages", schema, raw, async (args) => {
        const view = await targetView(deps, args, context, "history_browse_messages");
        const config = deps.config();
        const request = { messageId: args.message_id, numBefore: args.num_before ?? 0, numAfter: args.num_after ?? 0 };
        return browseMessages(view, request, { previewChars: config.browse.preview_chars, cap: config.browse.max_messages, directory: deps.directory });
      });
    },
  });
}
