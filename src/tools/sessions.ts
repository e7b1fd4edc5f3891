import { tool, type ToolDefinition } from "@opencode-ai/plugin";
import { formatSessionsAnswer } from "../search/format.ts";
import { MAX_QUERY_CHARS, type SearchService, type SessionsRequest } from "../search/service.ts";
import { optionalBool, optionalEnum, optionalInt, optionalString } from "./args.ts";
import type { ToolDeps } from "./deps.ts";
import { askForEveryProject } from "./reach.ts";
import { runTool } from "./run.ts";

const z = tool.schema;

export const DEFAULT_SESSIONS = 20;
export const MAX_SESSIONS = 100;

export function createHistorySessionsTool(_deps: ToolDeps, service: SearchService): ToolDefinition {
  return tool({
    description: `The project's sessions, newest first: id, title, parent (for subagent sessions), times, number of turns, and the first request as a preview.
With query: only sessions whose content matches, best first, each with its best snippet — to find "the session where we fixed the rate limiter" without knowing its id.
Then: pass session_id to history_browse_turns, history_search or the pull tools.`,
    args: {
      query: z.string().optional().describe(`Words to rank sessions by (1-${MAX_QUERY_CHARS} characters). Default: no ranking, newest first.`),
      limit: z.number().int().optional().describe(`Most sessions to return (1-${MAX_SESSIONS}, default ${DEFAULT_SESSIONS}).`),
      include_children: z.boolean().optional().describe("Include subagent (child) sessions (default false)."),
      scope: z.enum(["project", "global"]).optional().describe('"project" (default) or "global": every project, each session with its directory (may ask the user).'),
    },
    execute(raw, context) {
      return runTool("history_sessions", raw, async (args) => {
        const query = optionalString(args, "query", { maxLength: MAX_QUERY_CHARS, hint: "words to rank sessions by" });
        const limit = optionalInt(args, "limit", { min: 1, max: MAX_SESSIONS, default: DEFAULT_SESSIONS }).value;
        const includeChildren = optionalBool(args, "include_children", false);
        const scope = optionalEnum(args, "scope", ["project", "global"] as const, "project");
        const request: SessionsRequest = query === undefined ? { limit, includeChildren } : { query, limit, includeChildren };
        if (scope === "global") {
          await askForEveryProject(context, "history_sessions");
          request.global = { callerSessionId: context.sessionID };
        }
        if (context.abort) request.signal = context.abort;
        const answer = await service.sessions(request);
        const hint =
          query === undefined
            ? includeChildren
              ? "This project has no sessions yet."
              : "No top-level sessions; try include_children=true."
            : "No session matches. Try other words, include_children=true, or history_search with literal=true.";
        return formatSessionsAnswer(answer, hint);
      });
    },
  });
}
