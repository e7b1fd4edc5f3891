// Which session a call reads, and the view of it that call may see.

import { buildView, type SessionView } from "../history/view.ts";
import type { ToolDeps } from "./deps.ts";

export interface CallContext {
  sessionID: string;
}

/** The session named by `session_id`, or the calling session; its own view hides the live context. */
export async function targetView(deps: ToolDeps, args: { session_id?: string | undefined }, context: CallContext): Promise<SessionView> {
  const sessionId = args.session_id ?? context.sessionID;
  const messages = await deps.source.loadMessages(sessionId);
  return buildView(sessionId, messages, sessionId === context.sessionID);
}
