// OpenCode 2: the host calls the default export's `setup(ctx)` once per location (a directory or
// workspace) and runs the function it returns on unload. OpenCode 1.x hosts call `server` instead,
// and one report says their embedded 2.x core also calls `setup`, with a registration-only context
// (no tool, session or event domain): such a call registers nothing and logs nothing.

import { startedByOpencode1 } from "./plugin.ts";

/** The slice of OpenCode 2's setup context this plugin needs; every domain is probed before use. */
interface Opencode2Context {
  tool: { transform: (...args: never[]) => unknown };
  session: { hook: (...args: never[]) => unknown; get?: (...args: never[]) => unknown };
  location?: { directory?: unknown; project?: { id?: unknown; directory?: unknown } };
}

function isFunction(value: unknown): value is (...args: never[]) => unknown {
  return typeof value === "function";
}

/** The context when it can register tools and session hooks; undefined for a registration-only context. */
export function opencode2Context(ctx: unknown): Opencode2Context | undefined {
  if (ctx === null || typeof ctx !== "object") return undefined;
  const { tool, session } = ctx as { tool?: { transform?: unknown }; session?: { hook?: unknown } };
  if (!isFunction(tool?.transform) || !isFunction(session?.hook)) return undefined;
  return ctx as Opencode2Context;
}

export async function setupEngram(ctx: unknown): Promise<(() => Promise<void>) | undefined> {
  // A 1.x host already runs the plugin through `server`: a second registration would double every tool.
  if (startedByOpencode1()) return undefined;
  const host = opencode2Context(ctx);
  if (!host) return undefined;
  return undefined;
}
