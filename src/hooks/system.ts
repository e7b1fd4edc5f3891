// experimental.chat.system.transform: adds the history guidance to every agent request and the
// navigator to a subagent's. The host rebuilds the system prompt for every request, so adding on
// each call is what keeps the blocks there (and never duplicates them).

import type { EngramConfig } from "../config/schema.ts";
import { GUIDANCE, GUIDANCE_TITLE, isInternalRequest, NAVIGATOR_TITLE, navigatorBlock, wantsNavigator } from "./guidance.ts";
import type { SessionFacts } from "./sessions.ts";

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
    if (parent !== undefined && wantsNavigator({ enable: upstream.enable, disableForAgents: upstream.disable_for_agents }, agent)) {
      blocks.push(navigatorBlock(parent));
    }
  }
  return blocks;
}
