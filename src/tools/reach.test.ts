import { describe, expect, it } from "vitest";
import { z } from "zod";
import { HistoryError } from "../history/errors.ts";
import { askForEveryProject, askToRead, defaultOtherProjectsToAsk, insideProject, isHostRefusal, OTHER_PROJECTS_PERMISSION, type AskContext } from "./reach.ts";
import { runTool } from "./run.ts";

function context(asked: unknown[], answer?: Error): AskContext {
  return {
    sessionID: "ses_caller",
    directory: "/work/app/packages/web",
    worktree: "/work/app",
    async ask(input) {
      asked.push(input);
      if (answer) throw answer;
    },
  };
}

describe("insideProject", () => {
  it("counts the worktree, anything under it, and an unknown directory as the project", () => {
    const ctx = context([]);
    expect(insideProject("/work/app", ctx)).toBe(true);
    expect(insideProject("/work/app/tools", ctx)).toBe(true);
    expect(insideProject(undefined, ctx)).toBe(true);
    expect(insideProject("/work/application", ctx)).toBe(false);
    expect(insideProject("/work", ctx)).toBe(false);
  });

  it('without a git worktree ("/") only the directory itself and below count', () => {
    const ctx: AskContext = { sessionID: "s", directory: "/notes", worktree: "/" };
    expect(insideProject("/notes/day1", ctx)).toBe(true);
    expect(insideProject("/other", ctx)).toBe(false);
  });
});

describe("asking", () => {
  it("asks for another project's directory with our permission name, and not inside the project", async () => {
    const asked: unknown[] = [];
    await askToRead({ id: "ses_mine", title: "t", directory: "/work/app/lib" }, context(asked), "history_browse_turns");
    expect(asked).toEqual([]);
    await askToRead({ id: "ses_theirs", title: "Theirs", directory: "/work/other" }, context(asked), "history_browse_turns");
    expect(asked).toEqual([
      {
        permission: OTHER_PROJECTS_PERMISSION,
        patterns: ["/work/other"],
        always: ["/work/other"],
        metadata: { tool: "history_browse_turns", session_id: "ses_theirs", title: "Theirs", directory: "/work/other" },
      },
    ]);
  });

  it("global reach asks once for the pattern *", async () => {
    const asked: unknown[] = [];
    await askForEveryProject(context(asked), "history_search");
    expect(asked).toEqual([{ permission: OTHER_PROJECTS_PERMISSION, patterns: ["*"], always: ["*"], metadata: { tool: "history_search", scope: "global" } }]);
  });

  it("refuses without a host prompt to ask with", async () => {
    await expect(askForEveryProject({ sessionID: "s" }, "history_search")).rejects.toBeInstanceOf(HistoryError);
  });

  it("passes the host's refusal through the tool shell unchanged", async () => {
    const refusal = new Error("The user rejected permission to use this specific tool call.");
    const outcome = runTool("history_search", z.object({}), {}, () => askForEveryProject(context([], refusal), "history_search"));
    await expect(outcome).rejects.toBe(refusal);
    expect(isHostRefusal(refusal)).toBe(true);
    expect(isHostRefusal(new Error("other"))).toBe(false);
  });
});

describe("defaultOtherProjectsToAsk (the config hook)", () => {
  it('adds ask when the user\'s permission config does not name our key, after any "*" rule', () => {
    const none: { permission?: unknown } = {};
    defaultOtherProjectsToAsk(none);
    expect(none.permission).toEqual({ [OTHER_PROJECTS_PERMISSION]: "ask" });

    const star: { permission?: unknown } = { permission: { "*": "allow", bash: "deny" } };
    defaultOtherProjectsToAsk(star);
    expect(star.permission).toEqual({ "*": "allow", bash: "deny", [OTHER_PROJECTS_PERMISSION]: "ask" });
    expect(Object.keys(star.permission as object).at(-1)).toBe(OTHER_PROJECTS_PERMISSION);

    const whole: { permission?: unknown } = { permission: "allow" };
    defaultOtherProjectsToAsk(whole);
    expect(whole.permission).toEqual({ "*": "allow", [OTHER_PROJECTS_PERMISSION]: "ask" });
  });

  it("leaves every form of the user's own rule for our key untouched", () => {
    const forms = ["allow", "deny", "ask", { "*": "allow", "/work/secret": "deny" }, {}];
    for (const rule of forms) {
      const permission = { "*": "allow", [OTHER_PROJECTS_PERMISSION]: rule };
      const config = { permission };
      defaultOtherProjectsToAsk(config);
      expect(config.permission).toBe(permission);
      expect(config.permission).toEqual({ "*": "allow", [OTHER_PROJECTS_PERMISSION]: rule });
    }
  });
});
