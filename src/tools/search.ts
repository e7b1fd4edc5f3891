import { tool, type ToolDefinition } from "@opencode-ai/plugin";
import { ArgumentError } from "../history/errors.ts";
import { HIT_TYPES, type HitType } from "../search/text/documents.ts";
import { formatSearchAnswer } from "../search/format.ts";
import { MAX_QUERY_CHARS, type SearchRequest, type SearchService } from "../search/service.ts";
import { optionalBool, optionalDate, optionalEnum, optionalEnumList, optionalId, optionalInt, optionalString, requiredString } from "./args.ts";
import type { ToolDeps } from "./deps.ts";
import { runTool } from "./run.ts";
import { askForEveryProject } from "./reach.ts";
import { mayRead } from "./target.ts";

const z = tool.schema;

function emptyHint(request: SearchRequest): string {
  const tips: string[] = [];
  if (request.literal || request.regex) tips.push("Try keywords without literal/regex");
  else tips.push("Try other or fewer words, or literal=true for an exact substring");
  if (request.scope === "session") tips.push('scope="project" to search every session');
  if (request.scope === "project") tips.push('scope="global" to search every project');
  if (!request.types.includes("reasoning")) tips.push('type="text|tool|reasoning" to include reasoning');
  if (request.role || request.tool || request.after !== undefined || request.before !== undefined) tips.push("drop the role/tool/after/before filters");
  if (request.scope === "session" && request.sessionId === request.callerSessionId) {
    tips.push("messages still in your context are not searched in your own session");
  }
  return `No message matches. ${tips.join("; ")}.`;
}

export function createHistorySearchTool(deps: ToolDeps, service: SearchService): ToolDefinition {
  return tool({
    description: `Find messages in the raw conversation history by what they say: an identifier, a path, an error, a decision, a phrase (any language, CJK included). Case and accents are ignored; identifiers match whole and by their parts (computeLineItemTotals ← "line item totals", "LineItem"); paths by segments and file names.
Ranked by relevance (more query words, rarer words, the whole phrase), newest first on ties. Each message lists its matching parts with short snippets.
literal=true: exact substring (ids, error codes). regex=true: JavaScript regex, case-insensitive.
Then: history_pull_message(message_id) or history_pull_part(message_id, part_id) for the full text; history_browse_turns(turn_number) for context.`,
    args: {
      query: z.string().describe(`What to look for (1-${MAX_QUERY_CHARS} characters).`),
      session_id: z.string().optional().describe("Session to search (ses_…). Default: this session. Use history_sessions to find others."),
      scope: z.enum(["session", "project", "global"]).optional().describe('"session" (default), "project" (its every session), "global" (every project; may ask the user).'),
      literal: z.boolean().optional().describe("Exact substring match (default false)."),
      regex: z.boolean().optional().describe("Query is a JavaScript regular expression (default false)."),
      type: z.string().optional().describe('Part types to search, "|"-separated: text, tool, reasoning (default "text|tool").'),
      role: z.enum(["user", "assistant"]).optional().describe("Only messages of this role."),
      tool: z.string().optional().describe("Only calls of this tool (exact name, e.g. bash)."),
      after: z.string().optional().describe("Only messages created after this ISO date (2026-05-01 or 2026-05-01T14:30:00Z)."),
      before: z.string().optional().describe("Only messages created before this ISO date."),
      limit: z.number().int().optional().describe("Most messages to return (default 10, from config)."),
    },
    execute(raw, context) {
      return runTool("history_search", raw, async (args) => {
        const config = deps.config().search;
        const query = requiredString(args, "query", { maxLength: MAX_QUERY_CHARS, hint: "the words, identifier or phrase to find" });
        const sessionId = optionalId(args, "session_id", "ses_");
        const scope = optionalEnum(args, "scope", ["session", "project", "global"] as const, "session");
        if (scope !== "session" && sessionId !== undefined) {
          throw new ArgumentError(`session_id cannot be combined with scope="${scope}" (it searches every session)`);
        }
        const literal = optionalBool(args, "literal", false);
        const regex = optionalBool(args, "regex", false);
        const types = optionalEnumList<HitType>(args, "type", HIT_TYPES, ["text", "tool"]);
        const role = optionalEnum(args, "role", ["user", "assistant"] as const);
        const toolName = optionalString(args, "tool", { maxLength: 100, hint: "a tool name such as bash" });
        const after = optionalDate(args, "after");
        const before = optionalDate(args, "before");
        if (after !== undefined && before !== undefined && after >= before) throw new ArgumentError("after must be earlier than before");
        const limit = optionalInt(args, "limit", { min: 1, max: config.max_message_limit, default: Math.min(config.message_limit, config.max_message_limit) }).value;
        const request: SearchRequest = {
          query,
          callerSessionId: context.sessionID,
          scope,
          literal,
          regex,
          types,
          limit,
        };
        if (sessionId !== undefined) request.sessionId = sessionId;
        else if (scope === "session") request.sessionId = context.sessionID;
        if (role !== undefined) request.role = role;
        if (toolName !== undefined) request.tool = toolName;
        if (after !== undefined) request.after = after;
        if (before !== undefined) request.before = before;
        if (scope === "global") await askForEveryProject(context, "history_search");
        else if (request.sessionId !== undefined) await mayRead(deps, request.sessionId, context, "history_search");
        if (context.abort) request.signal = context.abort;
        const answer = await service.search(request);
        return formatSearchAnswer(answer, emptyHint(request));
      });
    },
  });
}
