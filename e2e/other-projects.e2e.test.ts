// Reads outside the calling session's project on the real host: the user's `permission` config for
// engram_other_projects decides (allow / deny / ask), and an ask is answered through the host's
// permission HTTP API. Inside the project nothing asks.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startHost, type Host } from "./harness/host.ts";
import { onOpenCode2 } from "./harness/hosts.ts";
import { callAnswering, seedOtherProject } from "./harness/other-project.ts";

type Json = Record<string, any>;

const others = mkdtempSync(join(tmpdir(), "engram-e2e-others-"));
const allowedDir = join(others, "allowed");
const deniedDir = join(others, "denied");
const askedDir = join(others, "asked");

let host: Host;
let main: string;
let sibling: string;
let allowed: string;
let denied: string;
let asked: string;

beforeAll(async () => {
  host = await startHost({
    // The user's settings: 1.x's `permission` map, OpenCode 2's `permissions` rules (the last match wins).
    config: onOpenCode2
      ? {
          permissions: [
            { action: "engram_other_projects", resource: "*", effect: "ask" },
            { action: "engram_other_projects", resource: allowedDir, effect: "allow" },
            { action: "engram_other_projects", resource: deniedDir, effect: "deny" },
          ],
        }
      : {
          permission: {
            "*": "allow",
            engram_other_projects: { "*": "ask", [allowedDir]: "allow", [deniedDir]: "deny" },
          },
        },
  });
  main = (await host.createSession()).id;
  host.mock.push({ text: "Main project: the invoice rounding is half-even." });
  await host.prompt(main, "How do we round invoices?");
  sibling = (await host.createSession()).id;
  host.mock.push({ text: "Sibling session of the same project." });
  await host.prompt(sibling, "A second session here.");
  allowed = (await seedOtherProject(host, allowedDir, "Allowed project question", "The quokka cache lives in allowed.")).id;
  denied = (await seedOtherProject(host, deniedDir, "Denied project question", "The quokka secret lives in denied.")).id;
  asked = (await seedOtherProject(host, askedDir, "Asked project question", "The quokka note lives in asked.")).id;
});

afterAll(async () => {
  await host?.stop();
  rmSync(others, { recursive: true, force: true });
});

describe("reading another project's session", () => {
  test("a session of the same project reads without asking, whatever the rule for other projects", async () => {
    const { result, asked: requests } = await callAnswering(host, main, "history_browse_turns", { session_id: sibling });
    expect(requests).toEqual([]);
    expect(result.status).toBe("completed");
    expect((result.output as Json).turns[0].user.preview).toBe("A second session here.");
  });

  test("allow: the project's rule lets the read through without a prompt", async () => {
    const { result, asked: requests } = await callAnswering(host, main, "history_browse_turns", { session_id: allowed });
    expect(requests).toEqual([]);
    expect(result.status).toBe("completed");
    expect((result.output as Json).turns[0].user.preview).toBe("Allowed project question");
  });

  test("deny: the read fails with the host's rule error and no prompt", async () => {
    const { result, asked: requests } = await callAnswering(host, main, "history_pull_message", { session_id: denied, message_id: "msg_x" });
    expect(requests).toEqual([]);
    expect(result.status).toBe("error");
    if (host.generation === 1) expect(result.error).toMatch(/^The user has specified a rule which prevents you from using this specific tool call/);
    else expect(result.error).toMatch(/^Permission denied: engram_other_projects/);
    expect(result.error).not.toContain("quokka");
  });

  test("ask, answered once: the prompt names our permission and the project's directory", async () => {
    const { result, asked: requests } = await callAnswering(host, main, "history_search", { session_id: asked, query: "quokka" }, "once");
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      permission: "engram_other_projects",
      patterns: [askedDir],
      always: [askedDir],
      metadata: { tool: "history_search", session_id: asked, directory: askedDir },
    });
    expect(result.status).toBe("completed");
    expect((result.output as Json).messages[0].hits[0].snippets[0]).toBe("The quokka note lives in asked.");
    // "once" approves this call only.
    const again = await callAnswering(host, main, "history_browse_turns", { session_id: asked }, "once");
    expect(again.asked).toHaveLength(1);
  });

  test("ask, rejected: the host's own refusal, and the host ends the turn as for its own tools", async () => {
    const { result, asked: requests } = await callAnswering(host, main, "history_browse_turns", { session_id: asked }, "reject");
    expect(requests).toHaveLength(1);
    expect(result.status).toBe("error");
    expect(result.error).toBe(host.generation === 1 ? "The user rejected permission to use this specific tool call." : "The user declined this tool call");
    const last = (await host.messages(main)).at(-1)!;
    expect(last.parts.some((part) => part.type === "text")).toBe(false);
    host.mock.reset();
  });

  test("ask, answered always: later reads of that project do not ask", async () => {
    const first = await callAnswering(host, main, "history_browse_turns", { session_id: asked }, "always");
    expect(first.asked).toHaveLength(1);
    const again = await callAnswering(host, main, "history_browse_turns", { session_id: asked });
    expect(again.asked).toEqual([]);
    expect(again.result.status).toBe("completed");
  });
});

describe('scope "global"', () => {
  test("history_sessions asks once for every project (*), then lists every project's sessions with their directories", async () => {
    const { result, asked: requests } = await callAnswering(host, main, "history_sessions", { scope: "global" }, "once");
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      permission: "engram_other_projects",
      patterns: ["*"],
      always: ["*"],
      metadata: { tool: "history_sessions", scope: "global" },
    });
    const sessions = (result.output as Json).sessions as Json[];
    const directories = new Map(sessions.map((session) => [session.session_id, session.directory]));
    expect(directories.get(main)).toBe(host.directory);
    expect(directories.get(allowed)).toBe(allowedDir);
    expect(directories.get(denied)).toBe(deniedDir);
    expect(directories.get(asked)).toBe(askedDir);
  });

  test("history_search, rejected, reads nothing; answered always, finds every project's matches and asks no more", async () => {
    const refused = await callAnswering(host, main, "history_search", { query: "quokka", scope: "global" }, "reject");
    expect(refused.result.status).toBe("error");
    host.mock.reset();
    const first = await callAnswering(host, main, "history_search", { query: "quokka", scope: "global" }, "always");
    expect(first.asked).toHaveLength(1);
    const found = ((first.result.output as Json).messages as Json[]).map((message) => [message.session_id, message.directory]);
    expect(found).toEqual(
      expect.arrayContaining([
        [allowed, allowedDir],
        [asked, askedDir],
        [denied, deniedDir],
      ]),
    );
    const project = await callAnswering(host, main, "history_search", { query: "quokka", scope: "project" });
    expect(project.result.output).toMatchObject({ hint: expect.stringContaining('scope="global"') });
    const again = await callAnswering(host, main, "history_sessions", { scope: "global", query: "quokka" });
    expect(again.asked).toEqual([]);
    expect(((again.result.output as Json).sessions as Json[]).map((session) => session.directory).sort()).toEqual([allowedDir, askedDir, deniedDir]);
  });
});
