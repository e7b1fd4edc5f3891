import { tool, type ToolDefinition } from "@opencode-ai/plugin";
import { pullMessage } from "../history/pull-message.ts";
import { requiredId } from "./args.ts";
import type { ToolDeps } from "./deps.ts";
import { runTool } from "./run.ts";
import { targetView } from "./target.ts";

const z = tool.schema;

export function createPullMessageTool(deps: ToolDeps): ToolDefinition {
  return tool({
    description: `One message in detail: its text, reasoning, tool calls (input and output), files and patches, section by section.
Long sections are cut with "[N chars more]" and carry a part_id: history_pull_part(message_id, part_id) reads the whole part.`,
    args: {
      session_id: z.string().optional().describe("Session to read (ses_…). Default: this session."),
      message_id: z.string().describe("Message to read (msg_…), from a browse or search result."),
    },
    execute(raw, context) {
      return runTool("history_pull_message", raw, async (args) => {
        const messageId = requiredId(args, "message_id", "msg_");
        const view = await targetView(deps, args, context, "history_pull_message");
        return pullMessage(view, messageId, {
          sectionChars: deps.config().pull.section_chars,
          visibility: deps.visibility(),
          directory: deps.directory,
        });
      });
    },
  });
}
