import { describe, expect, it } from "vitest";
import type { HistoryMessage } from "../history/types.ts";
import { MemorySource } from "../store/testing/memory-source.ts";
import { testService } from "./testing/service.ts";
import { addSession } from "./testing/sessions.ts";

const T0 = Date.UTC(2025, 0, 1);

/** Cancels the call once the source has served `after` reads. */
class CancellingSource extends MemorySource {
  readonly controller = new AbortController();
  constructor(private readonly after: number) {
    super();
  }
  override async loadMessages(sessionId: string): Promise<HistoryMessage[]> {
    const messages = await super.loadMessages(sessionId);
    if (this.loads >= this.after) this.controller.abort();
    return messages;
  }
}

function fill(source: MemorySource, sessions: number): void {
  for (let s = 0; s < sessions; s++) {
    const id = `ses_${String(s).padStart(3, "0")}`;
    const texts = Array.from({ length: 6 }, (_, i) => `the rate limiter of service ${s} rejected request ${i}`);
    addSession(source, id, texts, { step: 1, title: id, updated: T0 + s });
  }
}

describe("a cancelled call stops its work", () => {
  it("project search: no session is read after the cancel", async () => {
    const source = new CancellingSource(3);
    fill(source, 40);
    const service = testService(source, (config) => (config.search.project_concurrency = 1));
    const search = service.search({
      query: "rate limiter",
      callerSessionId: "ses_caller",
      scope: "project",
      types: ["text"],
      signal: source.controller.signal,
    });
    await expect(search).rejects.toThrow(/abort/i);
    expect(source.loads).toBe(3);
  });

  it("history_sessions with a query: stops like a project search", async () => {
    const source = new CancellingSource(5);
    fill(source, 40);
    const service = testService(source, (config) => (config.search.project_concurrency = 1));
    await expect(service.sessions({ query: "rate limiter", limit: 10, includeChildren: true, signal: source.controller.signal })).rejects.toThrow(/abort/i);
    expect(source.loads).toBe(5);
  });

  it("session search: cancelled during the read, it scans nothing and answers nothing", async () => {
    const source = new CancellingSource(1);
    fill(source, 1);
    const service = testService(source);
    const search = service.search({
      query: "rate limiter",
      callerSessionId: "ses_caller",
      scope: "session",
      sessionId: "ses_000",
      types: ["text"],
      signal: source.controller.signal,
    });
    await expect(search).rejects.toThrow(/abort/i);
    // The index build a search starts after its scan never started.
    expect(service.cache.size).toBe(0);
  });
});
