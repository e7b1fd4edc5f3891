// Run in the host's Bun by src/setup.test.ts (runInBun): the package's default export set up on a
// stand-in OpenCode 2 context (src/opencode2/testing/stand-in-host.ts) over a store holding OpenCode 2's
// tables (src/store/v2/testing/v2-store.ts), then driven the way the host drives it: the tools
// through the editor they were added to, the session hooks through the hook registry. Reports what
// each step answered; the test holds the answers to what the contract says.

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { answer } from "../store/testing/run-in-bun.ts";
import { standInHost, standInRegistrationOnlyContext, type PermissionVariant } from "../opencode2/testing/stand-in-host.ts";
import { V2StoreBuilder } from "../store/v2/testing/v2-store.ts";
import engram from "../index.ts";
import { scratchDir } from "../util/testing/scratch-dir.ts";

const text = (value: string) => ({ type: "text", text: value });
const DIRECTORY = "/work/limiter";
const OTHER = "/work/billing";

async function seedStore(): Promise<void> {
  const root = scratchDir("v2-entry");
  // The plugin reads the host's data folder and the global config folder from these.
  process.env.XDG_DATA_HOME = join(root, "data");
  process.env.XDG_CONFIG_HOME = join(root, "config");
  mkdirSync(join(root, "data", "opencode"), { recursive: true });
  const store = await V2StoreBuilder.create(join(root, "data", "opencode", "opencode.db"), "opencode-2");
  store.session({ id: "ses_main", projectId: "prj_limiter", directory: DIRECTORY, title: "Per-key rate limiter" });
  store.session({ id: "ses_child", projectId: "prj_limiter", directory: DIRECTORY, parentId: "ses_main", agent: "general", title: "Check the limiter" });
  store.session({ id: "ses_other", projectId: "prj_billing", directory: OTHER, title: "Invoice rounding" });
  store.message("ses_main", "user", { text: "Our public API needs per-key rate limiting; Northwind complains about bursts." }, "msg_0001");
  store.message(
    "ses_main",
    "assistant",
    { agent: "build", content: [text("Decision: a sliding-window limiter, not a token bucket, 120 requests per minute per key.")] },
    "msg_0002",
  );
  store.message("ses_main", "user", { text: "Run the server once." }, "msg_0003");
  store.message(
    "ses_main",
    "assistant",
    {
      agent: "build",
      content: [
        {
          type: "tool",
          id: "call_1",
          name: "shell",
          state: { status: "completed", input: { command: "node server.js" }, content: [text("Error: LIMITER_REDIS_URL is not set")] },
          time: { created: 1 },
        },
      ],
    },
    "msg_0004",
  );
  store.message("ses_main", "user", { text: "Ops wants the limit configurable." }, "msg_0005");
  store.message("ses_main", "assistant", { agent: "build", content: [text("RATE_LIMIT_PER_MIN now overrides the limit; the default stays 120.")] }, "msg_0006");
  store.message("ses_child", "user", { text: "Check that the limiter answers 429." }, "msg_0101");
  store.message("ses_other", "user", { text: "How are invoices rounded?" }, "msg_0201");
  store.message("ses_other", "assistant", { agent: "build", content: [text("Half-even, to the cent.")] }, "msg_0202");
  store.close();
}

type Host = ReturnType<typeof standInHost>;

function caller(host: Host, sessionID = "ses_main") {
  return async (name: string, input: unknown): Promise<{ content?: string; json?: unknown; keys: string[] }> => {
    const tool = host.tool.effective().get(name) as { execute(input: unknown, context: unknown): Promise<Record<string, unknown>> };
    const result = await tool.execute(input, { sessionID, agent: "build", messageID: "msg_9999", id: "call_x" });
    const content = typeof result.content === "string" ? result.content : undefined;
    let json: unknown;
    try {
      json = content === undefined ? undefined : JSON.parse(content);
    } catch {
      json = undefined; // an error text, not an answer
    }
    return { content, json, keys: Object.keys(result) };
  };
}

async function started(permission: PermissionVariant) {
  const host = standInHost({ location: { directory: DIRECTORY, project: { id: "prj_limiter", directory: DIRECTORY } }, permission });
  const cleanup = await engram.setup(host.context);
  return { host, cleanup, call: caller(host) };
}

async function scenario(): Promise<unknown> {
  await seedStore();
  const registrationOnly = standInRegistrationOnlyContext();
  const fromRegistrationOnly = await engram.setup(registrationOnly.context);

  const { host, cleanup, call } = await started({ kind: "neither" });

  const toolHit = await call("history_search", { query: "LIMITER_REDIS_URL", scope: "project" });
  const sessions = await call("history_sessions", { include_children: true });
  const badArgument = await call("history_browse_turns", { turn_number: "first" });
  const unknownSession = await call("history_browse_turns", { session_id: "ses_nowhere" });
  const otherRefused = await call("history_browse_turns", { session_id: "ses_other" });
  const globalRefused = await call("history_search", { query: "invoices", scope: "global" });

  await cleanup?.();
  const afterCleanup = [...host.tool.effective().keys()].filter((name) => name.startsWith("history_"));

  // The user says no: the host's session reads (which ask no one on 2.1.2) must not be a way round it.
  const declining = await started({ kind: "assert", refusal: new Error("The user declined this tool call") });
  declining.host.session.sessions.set("ses_other", { id: "ses_other", projectID: "prj_billing", location: { directory: OTHER } });
  // The host's rejection is thrown on, as on 1.x: the host fails the call with it.
  const thrown = (input: Promise<unknown>) =>
    input.then(
      (answered) => ({ answered }),
      (error: Error) => ({ thrown: error.message }),
    );
  const otherDeclined = await thrown(declining.call("history_browse_turns", { session_id: "ses_other" }));
  const globalDeclined = await thrown(declining.call("history_search", { query: "invoices", scope: "global" }));
  const sessionReads = declining.host.session.reads;
  await declining.cleanup?.();

  return {
    registrationOnly: {
      returned: fromRegistrationOnly ?? null,
      transforms: Object.values(registrationOnly.transforms).reduce((n, registry) => n + registry.made.length, 0),
    },
    toolHit,
    sessions,
    badArgument,
    unknownSession,
    otherRefused,
    globalRefused,
    afterCleanup,
    otherDeclined,
    globalDeclined,
    sessionReads,
  };
}

await answer(scenario);
