// The permission gate as the tools apply it: nothing of another project is read before the host
// allows it, and global scope asks once, for every project.
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../config/schema.ts";
import { textMessage } from "../history/testing/messages.ts";
import { toolVisibility } from "../history/tool-visibility.ts";
import type { SessionInfo } from "../history/types.ts";
import { MemorySource } from "../store/testing/memory-source.ts";
import { createSearchService } from "../search/api.ts";
import { createBrowseTurnsTool } from "./view-tools.ts";
import { ViewCache } from "../history/view-cache.ts";
import type { ToolDeps } from "./deps.ts";
import { createHistorySearchTool } from "./search.ts";
import { createHistorySessionsTool } from "./sessions.ts";

const T0 = Date.UTC(2025, 0, 1);

class EverySessionSource extends MemorySource {
  /** Every project's sessions, newest first, as the store-backed source lists them. */
  async listEverySession(): Promise<SessionInfo[]> {
    return [...this.sessions.values()].map((session) => session.info).sort((a, b) => (b.updated ?? 0) - (a.updated ?? 0));
  }
}

function setup(source: MemorySource, refuse?: Error) {
  source.add({ id: "ses_here", title: "here", directory: "/p/app", created: T0, updated: T0 }, [textMessage("ses_here", "user", "pelican retries here", T0)]);
  source.add({ id: "ses_there", title: "there", directory: "/q", created: T0, updated: T0 + 1 }, [
    textMessage("ses_there", "user", "pelican timeouts there", T0 + 1),
  ]);
  const config = defaultConfig();
  const visibility = toolVisibility([], []);
  const deps: ToolDeps = { config: () => config, visibility: () => visibility, source, views: new ViewCache(), directory: "/p" };
  const service = createSearchService({ source, config: () => config, visibility: () => visibility });
  const asked: Array<{ patterns: string[] }> = [];
  const ctx = {
    sessionID: "ses_caller",
    directory: "/p",
    worktree: "/p",
    async ask(input: { patterns: string[] }) {
      asked.push(input);
      if (refuse) throw refuse;
    },
  } as never;
  return { asked, ctx, search: createHistorySearchTool(deps, service), sessions: createHistorySessionsTool(deps, service), turns: createBrowseTurnsTool(deps) };
}

describe("the gate in the tools", () => {
  it("reads a session of the project without asking, and another project's only after asking", async () => {
    const source = new MemorySource();
    const { asked, ctx, turns } = setup(source);
    await turns.execute({ session_id: "ses_here" } as never, ctx);
    expect(asked).toEqual([]);
    await turns.execute({ session_id: "ses_there" } as never, ctx);
    expect(asked.map((request) => request.patterns)).toEqual([["/q"]]);
  });

  it("a refusal reaches the host unchanged and nothing of that session was loaded", async () => {
    const refusal = new Error("The user rejected permission to use this specific tool call.");
    const source = new MemorySource();
    const { ctx, search } = setup(source, refusal);
    await expect(search.execute({ query: "pelican", session_id: "ses_there" } as never, ctx)).rejects.toBe(refusal);
    expect(source.loads).toBe(0);
  });

  it("global scope asks once for *, then names each result's directory", async () => {
    const source = new EverySessionSource();
    const { asked, ctx, search, sessions } = setup(source);
    const found = JSON.parse((await search.execute({ query: "pelican", scope: "global" } as never, ctx)) as string) as {
      messages: Array<{ session_id: string; directory: string }>;
    };
    expect(asked.map((request) => request.patterns)).toEqual([["*"]]);
    expect(found.messages.map((message) => [message.session_id, message.directory]).sort()).toEqual([
      ["ses_here", "/p/app"],
      ["ses_there", "/q"],
    ]);
    const listed = JSON.parse((await sessions.execute({ scope: "global" } as never, ctx)) as string) as { sessions: Array<{ directory: string }> };
    expect(listed.sessions.map((session) => session.directory)).toEqual(["/q", "/p/app"]);
  });

  it("global scope over a source that cannot list every project says so", async () => {
    const { ctx, search } = setup(new MemorySource());
    await expect(search.execute({ query: "pelican", scope: "global" } as never, ctx)).rejects.toThrow(/scope "global" is not available/);
  });
});
