// Host events that tell the message cache what changed, so reads refetch only that.

import type { CachedHistorySource } from "../store/cached-source.ts";
import { object, string } from "../store/json-fields.ts";

/** Told which sessions changed: the message cache, and the store's projection. */
type ChangeTarget = Pick<CachedHistorySource, "markDirty" | "forget">;

export function applyHostEvent(source: ChangeTarget, event: { type: string; properties?: unknown }): void {
  const props = object(event.properties);
  switch (event.type) {
    case "message.updated": {
      const info = object(props?.info);
      const sessionId = string(info?.sessionID) ?? string(props?.sessionID);
      if (sessionId) source.markDirty(sessionId, string(info?.id));
      return;
    }
    case "message.part.updated": {
      const part = object(props?.part);
      const sessionId = string(part?.sessionID) ?? string(props?.sessionID);
      if (sessionId) source.markDirty(sessionId, string(part?.messageID));
      return;
    }
    case "message.part.delta":
    case "message.removed":
    case "message.part.removed": {
      const sessionId = string(props?.sessionID);
      if (sessionId) source.markDirty(sessionId, string(props?.messageID));
      return;
    }
    case "session.deleted": {
      const sessionId = string(object(props?.info)?.id);
      if (sessionId) source.forget(sessionId);
      return;
    }
  }
}
