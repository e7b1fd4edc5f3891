// Which session a call reads, and the view of it that call may see.

import { buildView, type SessionView } from "../history/view.ts";
import { optionalId, type Args } from "./args.ts";
import type { ToolDeps } from "./deps.ts";

export interface CallContext {
  sessionID: string;
  /** The host cancels the call through this (the user interrupted the turn). */
  abort?: AbortSignal;
}

/** The session named by `session_id`, or the calling session; its own view hides the live context. */
export async function targetView(deps: ToolDeps, args: Args, context: CallContext): Promise<SessionView> {
  const sessionId = optionalId(args, "session_id", "ses_") ?? context.sessionID;
  const messages = await deps.source.loadMessages(sessionId, context.abort ? { signal: context.abort } : {});
  return buildView(sessionId, messages, sessionId === context.sessionID);
}
