import { tool, type ToolDefinition } from "@opencode-ai/plugin";
import { ArgumentError } from "../history/errors.ts";
import { formatSessionsAnswer, MAX_ALTERNATIVES, MAX_OFFSET, MAX_QUERY_CHARS, type SearchService, type SessionsRequest } from "../search/api.ts";
import type { ToolDeps } from "./deps.ts";
import { choice, flag, integer, integerUpTo, text, textList } from "./params.ts";
import { askForEveryProject } from "./reach.ts";
import { runTool } from "./run.ts";

const z = tool.schema;

const DEFAULT_SESSIONS = 20;
const MAX_SESSIONS = 100;

const sessionsArgs = {
  query: text(MAX_QUERY_CHARS).optional().describe("Rank by content"),
  alternatives: textList(MAX_ALTERNATIVES, MAX_QUERY_CHARS).optional(),
  limit: integer(1, MAX_SESSIONS).optional().describe(`Default: ${DEFAULT_SESSIONS}`),
  offset: integerUpTo(0, MAX_OFFSET).optional(),
  include_children: flag().optional().describe("Include subagent sessions"),
  scope: choice(["project", "global"]).optional().describe("global may ask the user"),
};
const schema = z.object(sessionsArgs);

export function createHistorySessionsTool(_deps: ToolDeps, service: SearchService): ToolDefinition {
  return tool({
    description: "This project's sessions, newest first: id, title, parent, turns, first request. With query: best first.",
    args: sessionsArgs,
    execute(raw, context) {
      return runTool("history_sessions", schema, raw, async (args) => {
        const limit = args.limit ?? DEFAULT_SESSIONS;
        const includeChildren = args.include_children ?? false;
        const query = args.query;
        const request: SessionsRequest = { limit, includeChildren, callerSessionId: context.sessionID };
        if (args.offset !== undefined) request.offset = args.offset;
        if (query !== undefined) request.query = query;
        if (args.alternatives !== undefined && args.alternatives.length > 0) {
          if (query === undefined) throw new ArgumentError("alternatives need a query: they are other phrasings of it");
          request.alternatives = args.alternatives;
        }
        if (args.scope === "global") {
          await askForEveryProject(context, "history_sessions");
          request.global = true;
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
