import { tool, type ToolDefinition } from "@opencode-ai/plugin";
import type { EngramConfig } from "../config/schema.ts";
import { ArgumentError } from "../history/errors.ts";
import { formatSearchAnswer, HIT_TYPES, MAX_ALTERNATIVES, MAX_OFFSET, MAX_QUERY_CHARS, type SearchRequest, type SearchService } from "../search/api.ts";
import type { ToolDeps } from "./deps.ts";
import { choice, flag, integer, integerUpTo, isoDate, sessionParam, text, textList, wordList } from "./params.ts";
import { askForEveryProject, mayRead } from "./reach.ts";
import { runTool } from "./run.ts";

const z = tool.schema;

/** Teaches the agent what alternatives help (docs/search-notes.md, "Alternatives: several phrasings fused"). */
const ALTERNATIVES_HELP = "Up to 3 more queries in words the history holds: error text, command, identifier, file name; not rewordings";

function emptyHint(request: SearchRequest): string {
  const tips: string[] = [];
  if (request.literal || request.regex) tips.push("Try keywords without literal/regex");
  else tips.push("Try other or fewer words, or literal=true for an exact substring");
  if (request.scope === "session") tips.push('scope="project" to search every session');
  if (request.scope === "project") tips.push('scope="global" to search every project');
  if (!request.types.includes("reasoning")) tips.push('type="text|tool|reasoning" to include reasoning');
  if (request.role || request.tool || request.after !== undefined || request.before !== undefined) tips.push("drop the role/tool/after/before filters");
  // Every scope but another session's searches the caller's own session without its live context.
  if (request.scope !== "session" || request.sessionId === request.callerSessionId) {
    tips.push("messages still in your context are not searched in your own session");
  }
  return `No message matches. ${tips.join("; ")}.`;
}

/** The arguments, with `limit` bounded by the configured search.max_message_limit. */
function searchArgs(search: EngramConfig["search"]) {
  return {
    query: text(MAX_QUERY_CHARS),
    alternatives: textList(MAX_ALTERNATIVES, MAX_QUERY_CHARS).optional().describe(ALTERNATIVES_HELP),
    session_id: sessionParam,
    scope: choice(["session", "project", "global"]).optional().describe("global may ask the user"),
    literal: flag().optional().describe("Exact substring"),
    regex: flag().optional().describe("JavaScript regex"),
    type: wordList(HIT_TYPES).optional().describe("text|tool|reasoning, any of them. Default: text|tool"),
    role: choice(["user", "assistant"]).optional(),
    tool: z.string({ error: "a tool name such as bash" }).trim().optional(),
    after: isoDate().optional().describe("ISO date"),
    // after's description covers both (issue 51 paid for alternatives' words here and in limit's default).
    before: isoDate().optional(),
    limit: integer(1, search.max_message_limit).optional(),
    offset: integerUpTo(0, MAX_OFFSET).optional(),
  };
}

const searchSchema = (search: EngramConfig["search"]) => z.object(searchArgs(search));

export function createHistorySearchTool(deps: ToolDeps, service: SearchService): ToolDefinition {
  // Arguments are parsed against the config of the moment (it is re-read when its file changes).
  let parsing: { search: EngramConfig["search"]; schema: ReturnType<typeof searchSchema> } | undefined;
  const schemaFor = (search: EngramConfig["search"]) => {
    if (parsing?.search !== search) parsing = { search, schema: searchSchema(search) };
    return parsing.schema;
  };
  return tool({
    description: "Find messages by words (identifier, path, error, decision, phrase; any language). Best first, with snippets and part ids.",
    args: searchArgs(deps.config().search),
    execute(raw, context) {
      const config = deps.config().search;
      return runTool("history_search", schemaFor(config), raw, async (args) => {
        const scope = args.scope ?? "session";
        if (scope !== "session" && args.session_id !== undefined) {
          throw new ArgumentError(`session_id cannot be combined with scope="${scope}" (it searches every session)`);
        }
        if (args.after !== undefined && args.before !== undefined && args.after >= args.before) throw new ArgumentError("after must be earlier than before");
        const request: SearchRequest = {
          query: args.query,
          callerSessionId: context.sessionID,
          scope,
          literal: args.literal ?? false,
          regex: args.regex ?? false,
          types: args.type ?? ["text", "tool"],
          limit: args.limit ?? Math.min(config.message_limit, config.max_message_limit),
        };
        if (args.session_id !== undefined) request.sessionId = args.session_id;
        else if (scope === "session") request.sessionId = context.sessionID;
        if (args.role !== undefined) request.role = args.role;
        if (args.tool !== undefined) request.tool = args.tool;
        if (args.after !== undefined) request.after = args.after;
        if (args.before !== undefined) request.before = args.before;
        if (args.offset !== undefined) request.offset = args.offset;
        if (args.alternatives !== undefined && args.alternatives.length > 0) request.alternatives = args.alternatives;
        if (scope === "global") await askForEveryProject(context, "history_search");
        else if (request.sessionId !== undefined) await mayRead(deps.source, request.sessionId, context, "history_search");
        if (context.abort) request.signal = context.abort;
        const answer = await service.search(request);
        return formatSearchAnswer(answer, emptyHint(request));
      });
    },
  });
}
