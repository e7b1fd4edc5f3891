import { tool, type ToolDefinition } from "@opencode-ai/plugin";
import { browseTurns } from "../history/browse-turns.ts";
import type { ToolDeps } from "./deps.ts";
import { integerUpTo, sessionParam, windowParams } from "./params.ts";
import { runTool } from "./run.ts";
import { targetView } from "./target.ts";

const z = tool.schema;

/** Turns shown when neither turn_number nor num_before is given. */
export const RECENT_TURNS = 10;

/** Highest turn_number the schema admits; no session has this many turns. */
const MAX_TURN_NUMBER = 1_000_000;

export const browseTurnsArgs = {
  session_id: sessionParam,
  turn_number: integerUpTo(1, MAX_TURN_NUMBER).optional().describe(`Default: the ${RECENT_TURNS} turns before this one`),
  ...windowParams,
};
const schema = z.object(browseTurnsArgs);

export function createBrowseTurnsTool(deps: ToolDeps): ToolDefinition {
  return tool({
    description: "One entry per user turn: request, answer, tools run (errors too), files changed. The cheapest overview.",
    args: browseTurnsArgs,
    execute(raw, context) {
      return runTool(
        "history_browse_turns",
        schema,
        raw,
        async (args) => {
          const view = await targetView(deps, args, context, "history_browse_turns");
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
    },
  });
}
