import { tool, type ToolDefinition } from "@opencode-ai/plugin";
import { pullMessage } from "../history/pull-message.ts";
import type { ToolDeps } from "./deps.ts";
import { id, sessionParam } from "./params.ts";
import { runTool } from "./run.ts";
import { targetView } from "./target.ts";

const z = tool.schema;

const pullMessageArgs = {
  session_id: sessionParam,
  message_id: id("msg_"),
};
const schema = z.object(pullMessageArgs);

export function createPullMessageTool(deps: ToolDeps): ToolDefinition {
  return tool({
    description: "One message in full: text, reasoning, tool calls with input and output, files. A part cut short is read whole by history_pull_part.",
    args: pullMessageArgs,
    execute(raw, context) {
      return runTool("history_pull_message", schema, raw, async (args) => {
        const view = await targetView(deps, args, context, "history_pull_message");
        return pullMessage(view, args.message_id, {
          sectionChars: deps.config().pull.section_chars,
          visibility: deps.visibility(),
          directory: deps.directory,
        });
      });
    },
  });
}
