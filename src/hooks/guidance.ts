// The blocks added to a model request's system prompt: the history guidance every agent request
// carries, and the navigator a subagent gets to reach its parent's discussion. Pure text and
// pure decisions; the hook in system.ts applies them.

/** First line of the guidance block; also how a request already carrying it is recognised. */
export const GUIDANCE_TITLE = "## Your conversation history";

export const GUIDANCE = [
  GUIDANCE_TITLE,
  "This session is stored verbatim, the record of truth, even what compaction removed from your context. Look up what was said, decided or tried instead of guessing: history_search(query), history_browse_turns (latest turns), history_pull_message (one message in full). They read this session unless given a session_id from history_sessions.",
].join("\n");

export const NAVIGATOR_TITLE = "## Your parent session";

export function navigatorBlock(parentSessionId: string): string {
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

export interface NavigatorDecision {
  enable: boolean;
  disableForAgents: readonly string[];
}

/** A child session gets the navigator unless it is switched off, globally or for its agent. */
export function wantsNavigator(config: NavigatorDecision, agent: string | undefined): boolean {
  if (!config.enable) return false;
  return agent === undefined || !config.disableForAgents.includes(agent);
}
