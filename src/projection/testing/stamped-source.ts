// A memory store whose sessions carry a change stamp, bumped on every write: what the projection's
// tests give a feed to read stamps and watermarks from (stamp-watermark.ts).

import type { HistoryMessage, SessionInfo } from "../../history/types.ts";
import { MemorySource } from "../../store/testing/memory-source.ts";

export class StampedSource extends MemorySource {
  readonly stamps = new Map<string, number>();

  put(info: SessionInfo, messages: HistoryMessage[]): void {
    this.add(info, messages);
    this.stamps.set(info.id, (this.stamps.get(info.id) ?? 0) + 1);
  }
}
