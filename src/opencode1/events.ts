// Host events that tell the message cache what changed, so reads refetch only that.

import type { CachedHistorySource } from "../store/cached-source.ts";

type Props = Record<string, unknown>;

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === "object" ? (value as Props)[key] : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** Told which sessions changed: the message cache, and the store's projection. */
type ChangeTarget = Pick<CachedHistorySource, "markDirty" | "forget">;

export function applyHostEvent(source: ChangeTarget, event: { type: string; properties?: unknown }): void {
  const props = event.properties;
  switch (event.type) {
    case "message.updated": {
      const info = field(props, "info");
      const sessionId = str(field(info, "sessionID")) ?? str(field(props, "sessionID"));
      if (sessionId) source.markDirty(sessionId, str(field(info, "id")));
      return;
    }
    case "message.part.updated": {
      const part = field(props, "part");
      const sessionId = str(field(part, "sessionID")) ?? str(field(props, "sessionID"));
      if (sessionId) source.markDirty(sessionId, str(field(part, "messageID")));
      return;
    }
    case "message.part.delta":
    case "message.removed":
    case "message.part.removed": {
      const sessionId = str(field(props, "sessionID"));
      if (sessionId) source.markDirty(sessionId, str(field(props, "messageID")));
      return;
    }
    case "session.deleted": {
      const sessionId = str(field(field(props, "info"), "id"));
      if (sessionId) source.forget(sessionId);
      return;
    }
  }
}
