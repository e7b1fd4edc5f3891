// OpenCode 2's session hooks. `compaction`: the chart becomes the compaction itself. Setting the
// event's `result` records it as the summary and skips the model call, so a compaction costs no
// model tokens at all. `context` (before every agent-loop request, subagents' too): the history
// guidance, and a subagent's parent session. Hooks mutate their event in place; a hook that throws
// would fail the user's request, so each one logs its failure and leaves the event as it was.
// Sources: docs/search-notes.md, "OpenCode 2 sources".

import { guardHook, type HookDeps } from "../hooks/deps.ts";
import { chartOfSession, checkpointView } from "../hooks/session-chart.ts";
import { SessionFacts } from "../hooks/sessions.ts";
import { systemBlocks } from "../hooks/system.ts";
import { keptTailStart } from "./kept-tail.ts";
import type { V2Registration } from "./types.ts";

interface SystemPart {
  type: string;
  text?: unknown;
}

/** The fields of SessionContext the hooks read or write. */
export interface ContextEvent {
  sessionID: string;
  agent?: string;
  /** "primary" for the agent loop on builds that set it; 2.0.22 and 2.1.2 set none (every request is one). */
  kind?: string;
  system: SystemPart[];
  /** LLM-level messages; each carries its session message id (to-llm-message.ts). */
  messages?: { id?: unknown }[];
}

export interface CompactionEvent extends ContextEvent {
  result?: { summary: string };
}

export interface SessionHookDomain {
  hook(name: "context", callback: (event: ContextEvent) => Promise<void>): Promise<V2Registration>;
  hook(name: "compaction", callback: (event: CompactionEvent) => Promise<void>): Promise<V2Registration>;
}

/** The newest message the summarizer was handed: the chart covers the history up to it. */
function lastMessageId(messages: ContextEvent["messages"]): string | undefined {
  for (let i = (messages?.length ?? 0) - 1; i >= 0; i--) {
    const id = messages![i]?.id;
    if (typeof id === "string" && id.startsWith("msg_")) return id;
  }
  return undefined;
}

/** `onSession` hears each session a hook runs for, before the hook reads its history. */
export async function registerSessionHooks(
  domain: SessionHookDomain,
  deps: HookDeps,
  onSession: (sessionId: string) => void = () => {},
): Promise<V2Registration[]> {
  const sessions = new SessionFacts(deps.source, deps.log);
  const guard = (hook: string, run: () => Promise<void>): Promise<void> => guardHook(deps.log, hook, run);

  const context = await domain.hook("context", (event) =>
    guard("context", async () => {
      onSession(event.sessionID);
      if (event.kind !== undefined && event.kind !== "primary") return;
      sessions.observeAgent(event.sessionID, event.agent);
      const texts = event.system.map((part) => (typeof part?.text === "string" ? part.text : ""));
      // No summarizer request reaches this hook on 2.x: compaction requests run the compaction hook.
      const blocks = await systemBlocks({ config: deps.config, sessions, isSummarizing: () => false }, event.sessionID, texts);
      for (const text of blocks) event.system.push({ type: "text", text });
    }),
  );

  const compaction = await domain.hook("compaction", (event) =>
    guard("compaction", async () => {
      onSession(event.sessionID);
      // Another plugin answered first (hooks run in registration order): its summary stands.
      if (event.result !== undefined || !deps.config().context_charting.enable) return;
      const sessionId = event.sessionID;
      const last = lastMessageId(event.messages);
      // Not the tail 2.1.2 keeps beside the summary: the own view hides it, so the chart must not cite it.
      const summary = await chartOfSession(deps, sessionId, (messages) => checkpointView(sessionId, messages, last, keptTailStart(messages)));
      event.result = { summary };
    }),
  );

  return [context, compaction];
}
