// The session info `opencode export` puts in its document, built from each generation's session row.

import { describe, expect, it } from "vitest";
import { v1SessionInfo, v2SessionInfo } from "./session-export.ts";

describe("export's session info", () => {
  it("OpenCode 1.x: Session.Info as 1.18.33 builds it from the session row (JSON columns parsed, nulls left out)", () => {
    const info = v1SessionInfo({
      id: "ses_1",
      project_id: "prj",
      workspace_id: null,
      parent_id: null,
      slug: "brave-star",
      directory: "/project",
      path: "",
      title: "Rate limiter",
      version: "1.18.33",
      share_url: null,
      summary_additions: 3,
      summary_deletions: null,
      summary_files: 1,
      summary_diffs: null,
      metadata: null,
      cost: 0,
      tokens_input: 10,
      tokens_output: 5,
      tokens_reasoning: 0,
      tokens_cache_read: 0,
      tokens_cache_write: 0,
      revert: null,
      permission: '[{"permission":"task","pattern":"*","action":"deny"}]',
      agent: null,
      model: null,
      time_created: 1,
      time_updated: 2,
      time_compacting: null,
      time_archived: null,
    });
    expect(JSON.parse(JSON.stringify(info))).toEqual({
      id: "ses_1",
      slug: "brave-star",
      projectID: "prj",
      directory: "/project",
      path: "",
      title: "Rate limiter",
      version: "1.18.33",
      summary: { additions: 3, deletions: 0, files: 1 },
      cost: 0,
      tokens: { input: 10, output: 5, reasoning: 0, cache: { read: 0, write: 0 } },
      permission: [{ permission: "task", pattern: "*", action: "deny" }],
      time: { created: 1, updated: 2 },
    });
    expect(Object.keys(info).slice(0, 4)).toEqual(["id", "slug", "projectID", "workspaceID"]);
  });

  it("OpenCode 2: Session.Info from the session_v2 row, the directory under location", () => {
    const info = v2SessionInfo({
      id: "ses_2",
      project_id: "prj",
      parent_id: "ses_1",
      title: null,
      directory: "/project",
      agent: "general",
      model: '{"id":"m","providerID":"p"}',
      time_created: 1,
      time_updated: 2,
      time_archived: null,
    });
    expect(JSON.parse(JSON.stringify(info))).toEqual({
      id: "ses_2",
      parentID: "ses_1",
      projectID: "prj",
      agent: "general",
      model: { id: "m", providerID: "p", variant: "default" },
      cost: 0,
      tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
      time: { created: 1, updated: 2 },
      title: "",
      location: { directory: "/project" },
    });
    // 2.1.2's session_v2 adds idle_outcome and time_idle, which its `session export` writes.
    const idle = v2SessionInfo({ id: "ses_3", project_id: "prj", directory: "/p", time_created: 1, time_updated: 2, time_idle: 3, idle_outcome: "succeeded" });
    expect(idle).toMatchObject({ outcome: "succeeded", time: { created: 1, updated: 2, idle: 3 } });
  });
});
