// `opencode-engram sessions`: the project's sessions, newest first, or ranked by --query.

import { formatSessionsAnswer, MAX_OFFSET, type SessionsRequest } from "../search/api.ts";
import { ALT_FLAG, alternativesFlag, answerFooter, phrasingNames, withAltErrors } from "./alternatives.ts";
import { intFlag, UsageError, type Parsed } from "./argv.ts";
import { EXIT, type CommandContext } from "./command.ts";
import { shortTime } from "./render.ts";

type Json = Record<string, any>;

export const SESSIONS_FLAGS = { values: ["project", "query", "limit", "offset", ALT_FLAG], switches: ["children", "global"], repeated: [ALT_FLAG] } as const;

export async function sessionsCommand(parsed: Parsed, ctx: CommandContext): Promise<number> {
  if (parsed.positionals.length > 0) throw new UsageError(`sessions takes no arguments (got ${parsed.positionals.join(" ")}); use --query`);
  const alternatives = alternativesFlag(parsed);
  const query = parsed.values.get("query");
  if (alternatives && query === undefined) throw new UsageError("--alt needs --query: alternatives are other phrasings of it");
  const history = await ctx.history(parsed);
  const request: SessionsRequest = { limit: intFlag(parsed, "limit", 1, 1000) ?? 20, includeChildren: parsed.switches.has("children") };
  if (query !== undefined) request.query = query;
  if (alternatives) request.alternatives = alternatives;
  if (parsed.switches.has("global")) request.global = true;
  const offset = intFlag(parsed, "offset", 0, MAX_OFFSET);
  if (offset !== undefined) request.offset = offset;
  const where = parsed.switches.has("global") ? "in the store" : `for ${history.root}`;
  history.onLoad = (loaded) => ctx.io.progress(`reading sessions… ${loaded}`);
  if (query !== undefined) await history.projection.useExisting("cli");
  const answer = await withAltErrors(history.search.sessions(request));
  ctx.io.progress(undefined);
  const json = formatSessionsAnswer(answer, "") as Json;
  if (parsed.switches.has("json")) ctx.io.out(JSON.stringify(json.sessions ? json : { sessions: [] }));
  else if (!json.sessions) {
    if (offset) ctx.io.err(`No more sessions past --offset ${offset}.`);
    else ctx.io.err(query === undefined ? `No sessions ${where}.` : `No session ${where} matches ${JSON.stringify(query)}.`);
  } else {
    for (const session of json.sessions as Json[]) {
      const turns = `${session.turns} turn${session.turns === 1 ? "" : "s"}`;
      ctx.io.out(`${ctx.io.style("bold", session.session_id)}  ${shortTime(session.updated)}  ${turns.padEnd(9)}  ${session.title}`);
      if (session.directory) ctx.io.out(`  ${ctx.io.style("dim", session.directory)}`);
      if (session.parent_id) ctx.io.out(ctx.io.style("dim", `  subagent of ${session.parent_id}`));
      if (session.preview) ctx.io.out(`  ${ctx.io.style("dim", "> ")}${session.preview}`);
      if (session.snippet) ctx.io.out(`  ${ctx.io.style("accent", "match")}  ${session.snippet}`);
      if (session.by) ctx.io.out(`  ${ctx.io.style("dim", `found by ${phrasingNames(session.by)}`)}`);
    }
    answerFooter(ctx.io, json, alternatives);
  }
  return json.sessions ? EXIT.ok : EXIT.nothingFound;
}
