// OpenCode 2: the host calls the default export's `setup(ctx)` once per location (a directory or
// workspace) and runs the function it returns on unload. The context has no SDK client and no log:
// history comes from the store's OpenCode 2 tables, opened on first use; tools go in through
// `ctx.tool.transform`, the chart and the guidance through session hooks. OpenCode 1.x calls
// `server` instead, and its embedded 2.x core also calls `setup` with a registration-only context
// (no tool, session or event domain; seen on 1.18.33): such a call registers nothing and logs nothing.

import { createEngram, engramConfig } from "../tools/engram.ts";
import { lazyReader } from "../store/lazy-reader.ts";
import { stderrLog, type Log } from "../util/log.ts";
import { dataDir } from "../store/sqlite.ts";
import { V2_DECODE } from "../store/v2/map.ts";
import { registerOtherProjectsAsk } from "./permission.ts";
import { registerSessionHooks, type SessionHookDomain } from "./session-hooks.ts";
import { openV2Reader } from "../store/store-file.ts";
import { callContextFor, type V2Location } from "./tool-context.ts";
import { registerHistoryTools, type V2ToolDomain } from "./tools.ts";
import type { V2Registration } from "./types.ts";

/** The slices of OpenCode 2's setup context this plugin uses (packages/plugin/src/promise/adapter.ts@07bc181c). */
interface Opencode2Context {
  tool: V2ToolDomain;
  session: SessionHookDomain;
  location?: Partial<V2Location>;
  permission?: object;
  agent?: object;
}

function isFunction(value: unknown): boolean {
  return typeof value === "function";
}

/** The context when it can register tools and session hooks; undefined for a registration-only one. */
function opencode2Context(ctx: unknown): Opencode2Context | undefined {
  if (ctx === null || typeof ctx !== "object") return undefined;
  const { tool, session } = ctx as { tool?: { transform?: unknown }; session?: { hook?: unknown } };
  if (!isFunction(tool?.transform) || !isFunction(session?.hook)) return undefined;
  return ctx as Opencode2Context;
}

/** Where this instance runs: the location's directory (the process's when a build passes none). */
function locationOf(host: Opencode2Context): V2Location {
  const location = host.location;
  const directory = typeof location?.directory === "string" && location.directory !== "" ? location.directory : process.cwd();
  return location?.project ? { directory, project: location.project } : { directory };
}

/** Runs one registration; a failure (the host's API moved) is logged and the rest still register. */
async function attempt(log: Log, what: string, register: () => Promise<V2Registration | V2Registration[] | undefined>): Promise<V2Registration[]> {
  try {
    const registered = await register();
    return registered === undefined ? [] : Array.isArray(registered) ? registered : [registered];
  } catch (error) {
    log("error", `could not register ${what}: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }
}

export async function setupEngram(ctx: unknown): Promise<(() => Promise<void>) | undefined> {
  const host = opencode2Context(ctx);
  if (!host) return undefined;
  const log = stderrLog();
  const location = locationOf(host);
  const { directory } = location;
  const config = engramConfig(directory, log);
  const reader = lazyReader((probe) => openV2Reader(dataDir(), probe, location.project?.id), log);
  const { source, tools, projection, close } = createEngram({ directory, config, reader, decode: V2_DECODE, generation: "opencode-2", log });

  const contextOf = callContextFor({ location, permission: host.permission, agent: host.agent }, () => config().permission.other_projects_without_prompt);
  const registrations = [
    ...(await attempt(log, "the history tools", () =>
      // Every session the host names may be the store's probe: the first one opens it.
      registerHistoryTools(host.tool, tools, (call) => {
        reader.observe(call.sessionID);
        projection.observe(call.sessionID);
        return contextOf(call);
      }),
    )),
    ...(await attempt(log, "the session hooks", () =>
      registerSessionHooks(host.session, { source, config, directory, log }, (sessionId) => {
        reader.observe(sessionId);
        projection.observe(sessionId);
      }),
    )),
    ...(await attempt(log, "the other-projects rule", () => registerOtherProjectsAsk(host.agent))),
  ];

  return async () => {
    for (const registration of registrations) await registration.dispose().catch(() => undefined);
    await close();
  };
}
