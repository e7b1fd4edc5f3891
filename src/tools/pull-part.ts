import { tool, type ToolDefinition } from "@opencode-ai/plugin";
import { pullPart } from "../history/pull-part.ts";
import { optionalInt, requiredId } from "./args.ts";
import type { ToolDeps } from "./deps.ts";
import { runTool } from "./run.ts";
import { targetView } from "./target.ts";

const z = tool.schema;

/** Largest page the model may ask for; each answer is also capped in bytes. */
const MAX_PAGE_CHARS = 40_000;

export function createPullPartTool(deps: ToolDeps): ToolDefinition {
  return tool({
    description: `The complete content of one part (text, reasoning, or a tool call's input and output), for sections history_pull_message cut short.
Large parts come in pages: pass next_offset back as offset to continue.`,
    args: {
      session_id: z.string().optional().describe("Session to read (ses_…). Default: this session."),
      message_id: z.string().describe("Message holding the part (msg_…)."),
      part_id: z.string().describe("Part to read (prt_…), from history_pull_message or history_search."),
      offset: z.number().int().optional().describe("Character offset to start at (default 0); use next_offset from the previous page."),
      limit: z.number().int().optional().describe(`Characters to return (1000-${MAX_PAGE_CHARS}; default from config, 20000).`),
    },
    execute(raw, context) {
      return runTool("history_pull_part", raw, async (args) => {
        const messageId = requiredId(args, "message_id", "msg_");
        const partId = requiredId(args, "part_id", "prt_");
        const offset = optionalInt(args, "offset", { min: 0, max: Number.MAX_SAFE_INTEGER, default: 0 }).value;
        const config = deps.config();
        const limit = optionalInt(args, "limit", { min: 1000, max: MAX_PAGE_CHARS, default: config.pull.part_page_chars }).value;
        const view = await targetView(deps, args, context, "history_pull_part");
        return pullPart(view, { messageId, partId, offset, limit }, deps.visibility());
      });
    },
  });
}
