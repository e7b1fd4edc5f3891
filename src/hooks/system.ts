// The blocks added to a model request's system prompt: the history guidance every agent request
// carries, and the navigator a subagent gets to reach its parent's discussion. On 1.x the host
// rebuilds the system prompt for every request (experimental.chat.system.transform), so adding on
// each call is what keeps the blocks there (and never duplicates them).

import type { EngramConfig } from "../config/schema.ts";
import type { SessionFacts } from "./sessions.ts";

/** First line of the guidance block; also how a request already carrying it is recognised. */
export const GUIDANCE_TITLE = "## Your conversation history";

export const GUIDANCE = [
  GUIDANCE_TITLE,
  "This session is stored verbatim, the record of truth, even what compaction removed from your context. Look up what was said, decided or tried instead of guessing: history_search(query), history_browse_turns (latest turns), history_pull_message (one message in full). They read this session unless given a session_id from history_sessions.",
].join("\n");

export const NAVIGATOR_TITLE = "## Your parent session";

function navigatorBlock(parentSessionId: string): string {
  return [
    NAVIGATOR_TITLE,
    `You are a subagent started by session ${parentSessionId}. The task description you were given carries its intent, not the discussion behind it. When you need what was said or decided there (requirements, constraints, names, earlier attempts), read the parent's history:`,
    `- history_search(session_id="${parentSessionId}", query="<words>")`,
    `- history_browse_turns(session_id="${parentSessionId}"), then history_pull_message(session_id="${parentSessionId}", message_id="<message_id>")`,
  ].join("\n");
}

/**
 * Openings of the host's own system prompts for internal requests (opencode 1.18.33:
 * the title generator, the compaction summarizer, the session summary). The host's
 * `experimental.chat.system.transform` input for these is `{sessionID, model}` like any other
 * request, so the prompt text is the only sign of what the request is.
 */
const INTERNAL_PROMPT_OPENINGS = ["You are a title generator", "You are a context summarization agent", "Summarize what was done in this conversation"];

/** True when the system prompt is one of the host's internal requests rather than an agent's. */
export function isInternalRequest(system: readonly string[]): boolean {
  return system.some((block) => {
    const text = block.trimStart();
    return INTERNAL_PROMPT_OPENINGS.some((opening) => text.startsWith(opening));
  });
}

export interface SystemBlocksDeps {
  config(): EngramConfig;
  sessions: SessionFacts;
  /** True while the session's compaction summarizer request is being prepared. */
  isSummarizing(sessionId: string): boolean;
}

/** The blocks this request should carry, in order; empty for internal requests. */
export async function systemBlocks(deps: SystemBlocksDeps, sessionId: string | undefined, system: readonly string[]): Promise<string[]> {
  // No session: the host generating an agent definition, not a conversation.
  if (sessionId === undefined || sessionId === "") return [];
  if (deps.isSummarizing(sessionId) || isInternalRequest(system)) return [];
  const config = deps.config();
  const blocks: string[] = [];
  if (config.history_guidance.enable && !system.some((block) => block.includes(GUIDANCE_TITLE))) {
    blocks.push(GUIDANCE);
  }
  const upstream = config.upstream_history;
  if (upstream.enable && !system.some((block) => block.includes(NAVIGATOR_TITLE))) {
    const parent = await deps.sessions.parentOf(sessionId);
    const agent = deps.sessions.agentOf(sessionId);
    // A child session gets the navigator unless it is switched off for its agent.
    if (parent !== undefined && (agent === undefined || !upstream.disable_for_agents.includes(agent))) blocks.push(navigatorBlock(parent));
  }
  return blocks;
}
