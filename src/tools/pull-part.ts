import { tool, type ToolDefinition } from "@opencode-ai/plugin";
import { pullPart } from "../history/pull-part.ts";
import type { ToolDeps } from "./deps.ts";
import { id, integer, integerUpTo, sessionParam } from "./params.ts";
import { runTool } from "./run.ts";
import { targetView } from "./target.ts";

const z = tool.schema;

/** Page sizes the model may ask for; each answer is also capped in bytes. */
const MIN_PAGE_CHARS = 1_000;
const MAX_PAGE_CHARS = 40_000;
/** Highest offset the schema admits; a part past it would not have been stored. */
const MAX_OFFSET = 1_000_000_000;

const pullPartArgs = {
  session_id: sessionParam,
  message_id: id("msg_"),
  part_id: id("prt_"),
  offset: integerUpTo(0, MAX_OFFSET).optional().describe("From next_offset"),
  limit: integer(MIN_PAGE_CHARS, MAX_PAGE_CHARS).optional().describe("Characters per page"),
};
const schema = z.object(pullPartArgs);

export function createPullPartTool(deps: ToolDeps): ToolDefinition {
  return tool({
    description: "One part in full (text, reasoning, a tool call with its output), in pages.",
    args: pullPartArgs,
    execute(raw, context) {
      return runTool("history_pull_part", schema, raw, async (args) => {
        const view = await targetView(deps, args, context, "history_pull_part");
        const request = {
          messageId: args.message_id,
          partId: args.part_id,
          offset: args.offset ?? 0,
          limit: args.limit ?? deps.config().pull.part_page_chars,
        };
        return pullPart(view, request, deps.visibility());
      });
    },
  });
}
