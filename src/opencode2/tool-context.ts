// OpenCode 2's tool call context, turned into the context the history tools take on 1.x. The v2
// context carries no directory, no worktree and no `ask`: the directory and the project come from
// the plugin's `location`, and the ask is the gate of ./permission.ts.
// Sources: docs/search-notes.md, "OpenCode 2 sources".

import type { ToolContext } from "@opencode-ai/plugin";
import type { AskContext } from "../tools/reach.ts";
import { otherProjectsAsk, type PermissionHost } from "./permission.ts";

/** The fields of an OpenCode 2 tool call context the history tools use. */
export interface V2ToolContext {
  readonly sessionID: string;
  readonly agent?: string;
  readonly messageID?: string;
  /** The tool call's id. */
  readonly id?: string;
  /** Absent on early 2.0 builds. */
  readonly signal?: AbortSignal;
}

/** The plugin context's `location`: the directory the plugin instance serves and its project. */
export interface V2Location {
  readonly directory: string;
  readonly workspaceID?: string;
  readonly project?: { readonly id?: string; readonly directory?: string };
}

type Ask = NonNullable<AskContext["ask"]>;

/** A call that is never cancelled: the 1.x context requires a signal. */
const NEVER_ABORTED = new AbortController().signal;

/**
 * The 1.x-shaped tool context for one OpenCode 2 call: the same handlers run on both hosts. The
 * project root is the location's project directory, the caller's directory the location's.
 */
export function toolContextOf(call: V2ToolContext, location: V2Location, ask: Ask): ToolContext {
  return {
    sessionID: call.sessionID,
    messageID: call.messageID ?? "",
    agent: call.agent ?? "",
    directory: location.directory,
    worktree: location.project?.directory ?? location.directory,
    abort: call.signal ?? NEVER_ABORTED,
    // The history tools set no live title or metadata; v2 would take them through `progress`.
    metadata: () => {},
    ask,
  };
}

/** The plugin context slices a call's context is made from. */
export interface CallHost extends PermissionHost {
  readonly location: V2Location;
}

/**
 * Each call's context on this host: its location, and the other-projects gate of ./permission.ts
 * for the calling session and agent. `allowWithoutPrompt` reads our config key of the moment.
 */
export function callContextFor(host: CallHost, allowWithoutPrompt: () => boolean): (call: V2ToolContext) => ToolContext {
  return (call) => toolContextOf(call, host.location, otherProjectsAsk(host, call, allowWithoutPrompt));
}
