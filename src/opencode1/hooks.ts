// The plugin's host hooks outside the tools: compaction charting, history guidance and the
// subagent navigator. Every hook catches its own failures and logs them: a hook that throws
// would break the user's request, and each of these has a safe "do nothing" fallback.

import type { Hooks } from "@opencode-ai/plugin";
import { CompactionCharting, type TransformMessage } from "./compaction.ts";
import { guardHook, type HookDeps } from "../hooks/deps.ts";
import { SessionFacts } from "../hooks/sessions.ts";
import { systemBlocks } from "../hooks/system.ts";
import { object, string } from "../store/json-fields.ts";

/** A host event as the `event` hook receives it (`input.event`). */
interface HostEvent {
  type: string;
  properties?: unknown;
}

export interface HookSet {
  /** Hooks to return from the plugin; `event` is onEvent. */
  hooks: Partial<Hooks>;
  /** The event handler alone, for merging with other handlers of `event`. */
  onEvent(event: HostEvent): Promise<void>;
}

export function createHookSet(deps: HookDeps): HookSet {
  const compaction = new CompactionCharting(deps);
  const sessions = new SessionFacts(deps.source, deps.log);

  const guard = (hook: string, run: () => unknown): Promise<void> => guardHook(deps.log, hook, run);

  const onEvent = (event: HostEvent): Promise<void> =>
    guard("event", () => {
      const properties = object(event?.properties);
      if (!properties) return;
      const sessionId = string(properties.sessionID);
      switch (event.type) {
        case "session.created":
        case "session.updated": {
          const info = object(properties.info);
          if (info) sessions.observeSession(info);
          return;
        }
        case "message.updated": {
          const info = object(properties.info);
          if (info) compaction.onMessageUpdated(info);
          return;
        }
        case "session.compacted":
        case "session.error":
        case "session.idle":
          if (sessionId !== undefined) compaction.onSessionEnded(sessionId);
          return;
      }
    });

  const hooks: Partial<Hooks> = {
    event: ({ event }) => onEvent(event as HostEvent),

    "chat.message": (input, output) =>
      guard("chat.message", () => {
        sessions.observeAgent(input.sessionID, input.agent ?? output.message?.agent);
      }),

    "experimental.session.compacting": (input, output) => guard("experimental.session.compacting", () => compaction.onCompacting(input, output)),

    "experimental.chat.messages.transform": (_input, output) =>
      guard("experimental.chat.messages.transform", () => compaction.onMessagesTransform(output as unknown as { messages: TransformMessage[] })),

    "chat.params": (input, output) => guard("chat.params", () => compaction.onChatParams(input, output)),

    "experimental.text.complete": (input, output) => guard("experimental.text.complete", () => compaction.onTextComplete(input, output)),

    "experimental.chat.system.transform": (input, output) =>
      guard("experimental.chat.system.transform", async () => {
        const blocks = await systemBlocks(
          { config: deps.config, sessions, isSummarizing: (id) => compaction.isSummarizing(id) },
          input.sessionID,
          output.system,
        );
        output.system.push(...blocks);
      }),
  };

  return { hooks, onEvent };
}
