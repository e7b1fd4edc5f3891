// Which session a call reads, and the view of it that call may see.

import type { SessionView } from "../history/view.ts";
import type { ToolDeps } from "./deps.ts";
import { askToRead, type AskContext } from "./reach.ts";

/** The host's tool context as the tools use it; `abort` is how the host cancels the call. */
export type CallContext = AskContext & { abort?: AbortSignal };

/** Resolves when the caller may read `sessionId`: its own session, its project, or another project the user allows. */
export async function mayRead(deps: ToolDeps, sessionId: string, context: CallContext, tool: string): Promise<void> {
  if (sessionId === context.sessionID) return;
  const session = await (deps.source.sessionOnce?.(sessionId, context.sessionID) ?? deps.source.getSession(sessionId));
  await askToRead(session, context, tool);
}

/** The session named by `session_id`, or the calling session; its own view hides the live context. */
export async function targetView(deps: ToolDeps, args: { session_id?: string | undefined }, context: CallContext, tool: string): Promise<SessionView> {
  const sessionId = args.session_id ?? context.sessionID;
  await mayRead(deps, sessionId, context, tool);
  const messages = await deps.source.loadMessages(sessionId, context.abort ? { signal: context.abort } : {});
  return deps.views.view(sessionId, messages, sessionId === context.sessionID);
}
