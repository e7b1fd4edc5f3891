// `opencode-engram search <query>`: the plugin's history_search over the store, for people.

import { formatSearchAnswer, type HitType, MAX_OFFSET, type SearchRequest, type SearchScope } from "../search/api.ts";
import { ALT_FLAG, alternativesFlag, answerFooter, phrasingNames, withAltErrors } from "./alternatives.ts";
import { choiceFlag, intFlag, UsageError, type Parsed } from "./argv.ts";
import { EXIT, type CommandContext } from "./command.ts";
import { shortTime } from "./render.ts";

type Json = Record<string, any>;

export const SEARCH_FLAGS = {
  values: ["scope", "session", "project", "limit", "offset", ALT_FLAG],
  switches: ["literal", "regex"],
  repeated: [ALT_FLAG],
} as const;

export async function searchCommand(parsed: Parsed, ctx: CommandContext): Promise<number> {
  const query = parsed.positionals.join(" ");
  if (query.trim() === "") throw new UsageError("search needs a query: opencode-engram search <query>");
  const sessionId = parsed.values.get("session");
  const scope: SearchScope = choiceFlag(parsed, "scope", ["session", "project", "global"] as const) ?? (sessionId ? "session" : "project");
  if (scope === "session" && !sessionId) throw new UsageError("--scope session needs --session <ses_…>");
  if (scope !== "session" && sessionId) throw new UsageError(`--session cannot be combined with --scope ${scope}`);
  const alternatives = alternativesFlag(parsed);
  const history = await ctx.history(parsed);
  const limit = intFlag(parsed, "limit", 1, history.config.search.max_message_limit) ?? history.config.search.message_limit;
  const request: SearchRequest = {
    query,
    callerSessionId: "",
    scope,
    literal: parsed.switches.has("literal"),
    regex: parsed.switches.has("regex"),
    types: ["text", "tool"] satisfies HitType[],
    limit,
  };
  if (sessionId) request.sessionId = sessionId;
  if (alternatives) request.alternatives = alternatives;
  const offset = intFlag(parsed, "offset", 0, MAX_OFFSET);
  if (offset !== undefined) request.offset = offset;
  const total =
    scope === "global" ? (await history.source.listEverySession("")).length : scope === "project" ? (await history.source.listSessions()).length : 1;
  history.onLoad = (loaded) => ctx.io.progress(`searching ${Math.min(loaded, total)}/${total} sessions…`);
  if (scope !== "session") await history.projection.useExisting("cli");
  const answer = await withAltErrors(history.search.search(request));
  ctx.io.progress(undefined);
  const json = formatSearchAnswer(answer, "No message matches.") as Json;
  if (parsed.switches.has("json")) ctx.io.out(JSON.stringify(json));
  else if (!json.messages) ctx.io.err(offset ? `No more messages past --offset ${offset}.` : `No message matches ${JSON.stringify(query)} (${scope} scope).`);
  else {
    const titles = new Map((await history.source.listEverySession("")).map((session) => [session.id, session.title]));
    for (const message of json.messages as Json[]) {
      const where = message.session_id ? `${message.session_id}  ${ctx.io.style("dim", titles.get(message.session_id) ?? "")}` : "";
      ctx.io.out(`${ctx.io.style("bold", message.message_id)}  turn ${message.turn_number}  ${message.role}  ${shortTime(message.time)}  ${where}`.trimEnd());
      if (message.directory) ctx.io.out(`  ${ctx.io.style("dim", message.directory)}`);
      if (message.by) ctx.io.out(`  ${ctx.io.style("dim", `found by ${phrasingNames(message.by)}`)}`);
      for (const hit of message.hits as Json[]) {
        const label = ctx.io.style("accent", hit.tool_name ? `${hit.type}:${hit.tool_name}` : hit.type);
        for (const snippet of hit.snippets as string[]) ctx.io.out(`  ${label}  ${snippet}`);
      }
      if (message.remain_hits) ctx.io.out(ctx.io.style("dim", `  … ${message.remain_hits} more matching parts`));
    }
    answerFooter(ctx.io, json, alternatives);
  }
  return json.messages ? EXIT.ok : EXIT.nothingFound;
}
