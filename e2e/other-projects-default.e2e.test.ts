// Our default on the real host: the harness's permission config is `"*": "allow"` with no rule for
// engram_other_projects, and the plugin's config hook still makes a read of another project ask.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startHost, type Host } from "./harness/host.ts";
import { callAnswering, seedOtherProject } from "./harness/other-project.ts";

const others = mkdtempSync(join(tmpdir(), "engram-e2e-default-"));
const otherDir = join(others, "other");

let host: Host;
let main: string;
let other: string;

beforeAll(async () => {
  host = await startHost();
  main = (await host.createSession()).id;
  host.mock.push({ text: "Main project session." });
  await host.prompt(main, "Hello here.");
  other = (await seedOtherProject(host, otherDir, "Other project question", "The wombat lives in other.")).id;
});

afterAll(async () => {
  await host?.stop();
  rmSync(others, { recursive: true, force: true });
});

test('with only "*": "allow" and no rule of the user\'s for our key, the host shows our default in its config', async () => {
  if (host.generation === 1) {
    const config = await host.request<{ permission: Record<string, unknown> }>("GET", "/config");
    expect(config.permission).toMatchObject({ "*": "allow", engram_other_projects: "ask" });
    return;
  }
  // OpenCode 2: the agent's rules, where our `ask` follows the blanket allow (askOtherProjectsByDefault).
  const { data } = await host.request<{ data: { permissions: { action: string; resource: string; effect: string }[] } }>("GET", "/api/agent/build");
  const blanket = data.permissions.findIndex((rule) => rule.action === "*" && rule.resource === "*" && rule.effect === "allow");
  const ours = data.permissions.findIndex((rule) => rule.action === "engram_other_projects" && rule.resource === "*" && rule.effect === "ask");
  expect(blanket).toBeGreaterThanOrEqual(0);
  expect(ours).toBeGreaterThan(blanket);
});

test("a read of another project asks (the request is listed by GET /permission) instead of passing silently", async () => {
  const { result, asked } = await callAnswering(host, main, "history_browse_turns", { session_id: other }, "once");
  expect(asked).toHaveLength(1);
  expect(asked[0]).toMatchObject({ permission: "engram_other_projects", patterns: [otherDir], always: [otherDir] });
  expect(result.status).toBe("completed");
  expect((result.output as Record<string, any>).turns[0].user.preview).toBe("Other project question");
});

test('scope "global" asks too', async () => {
  const { result, asked } = await callAnswering(host, main, "history_sessions", { scope: "global" }, "once");
  expect(asked).toHaveLength(1);
  expect(asked[0]).toMatchObject({ permission: "engram_other_projects", patterns: ["*"] });
  expect(result.status).toBe("completed");
});
