// The blocks added to a model request's system prompt: the history guidance every agent request
// carries, and the navigator a subagent gets to reach its parent's discussion. Pure text and
// pure decisions; the hook in system.ts applies them.

/** First line of the guidance block; also how a request already carrying it is recognised. */
export const GUIDANCE_TITLE = "## Your conversation history";

export const GUIDANCE = [
  GUIDANCE_TITLE,
  "Everything said and done in this session is stored verbatim and is the record of truth; your context may hold only part of it (after a compaction, a chart). Read it instead of guessing what was said, decided or tried.",
  "- history_search(query): find where something was discussed. Start here when you know what to look for.",
  "- history_browse_turns / history_browse_messages: page through turns or messages in order when you need the sequence of events.",
  "- history_pull_message(message_id) / history_pull_part: the full text of a message or a tool output, once browse or search gave you its id.",
  "- history_sessions: other sessions of this project; the tools accept session_id to read one.",
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
const INTERNAL_PROMPT_OPENINGS = [
  "You are a title generator",
  "You are a context summarization agent",
  "Summarize what was done in this conversation",
];

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
