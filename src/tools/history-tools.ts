// The six history tools by name, as both hosts register them (1.x through the `tool` hook, OpenCode 2
// through ctx.tool.transform).

import type { ToolDefinition } from "@opencode-ai/plugin";
import type { SearchService } from "../search/api.ts";
import type { ToolDeps } from "./deps.ts";
import { createHistorySearchTool } from "./search.ts";
import { createHistorySessionsTool } from "./sessions.ts";
import { createBrowseMessagesTool, createBrowseTurnsTool, createPullMessageTool, createPullPartTool } from "./view-tools.ts";

/** The six tools' names, sorted: what a host's tool list must hold once each. */
export const HISTORY_TOOL_NAMES = [
  "history_browse_messages",
  "history_browse_turns",
  "history_pull_message",
  "history_pull_part",
  "history_search",
  "history_sessions",
] as const;

export function createHistoryTools(deps: ToolDeps, search: SearchService): Record<string, ToolDefinition> {
  return {
    history_browse_turns: createBrowseTurnsTool(deps),
    history_browse_messages: createBrowseMessagesTool(deps),
    history_pull_message: createPullMessageTool(deps),
    history_pull_part: createPullPartTool(deps),
    history_search: createHistorySearchTool(deps, search),
    history_sessions: createHistorySessionsTool(deps, search),
  };
}
