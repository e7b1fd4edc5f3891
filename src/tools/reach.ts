// Reads outside the calling session's project go through the host's permission system: the user's
// `permission` config decides (allow / ask / deny), and a prompt can approve one project, or every
// project, once. Inside the project nothing asks.

import { isAbsolute, relative } from "node:path";
import { HistoryError } from "../history/errors.ts";
import type { HistorySource } from "../history/source.ts";
import type { SessionInfo } from "../history/types.ts";
import { toolCalls } from "../projection/index.ts";

/** Our own permission name: the key users set in their OpenCode `permission` config. */
export const OTHER_PROJECTS_PERMISSION = "engram_other_projects";

/**
 * Makes our permission ask unless the user's own config names it (the plugin's `config` hook).
 * OpenCode 1.18.33's agent defaults start with `"*": "allow"`, which would let other projects
 * through silently. Any rule of the user's for our key (allow, deny, ask, per-pattern) wins; a bare
 * `"*"` does not, since our key is appended after it and the last matching rule wins.
 */
export function defaultOtherProjectsToAsk(config: { permission?: unknown }): void {
  const permission = config.permission;
  if (permission !== null && typeof permission === "object") {
    if (!Object.hasOwn(permission, OTHER_PROJECTS_PERMISSION)) (permission as Record<string, unknown>)[OTHER_PROJECTS_PERMISSION] = "ask";
  } else if (typeof permission === "string") {
    config.permission = { "*": permission, [OTHER_PROJECTS_PERMISSION]: "ask" };
  } else {
    config.permission = { [OTHER_PROJECTS_PERMISSION]: "ask" };
  }
}

/** The pattern of a request for every project at once (`scope: "global"`). */
export const EVERY_PROJECT = "*";

/** The slice of the host's tool context the gate needs. */
export interface AskContext {
  sessionID: string;
  directory?: string;
  worktree?: string;
  ask?(input: { permission: string; patterns: string[]; always: string[]; metadata: Record<string, unknown> }): Promise<void>;
}

function within(directory: string, root: string): boolean {
  const path = relative(root, directory);
  return path === "" || (!path.startsWith("..") && !isAbsolute(path));
}

/**
 * True when `directory` belongs to the caller's project: its directory or anything under the
 * worktree. A host without a worktree (not a git repo: worktree "/") counts the directory only.
 */
export function insideProject(directory: string | undefined, context: AskContext): boolean {
  if (directory === undefined || directory === "") return true; // the host did not say: nothing to ask about
  if (context.directory && within(directory, context.directory)) return true;
  const worktree = context.worktree;
  return worktree !== undefined && worktree !== "" && worktree !== "/" && within(directory, worktree);
}

type AskInput = Parameters<NonNullable<AskContext["ask"]>>[0];

/** The host's own refusals (a deny rule, the user's "reject"), passed on unchanged. */
const refusals = new WeakSet<object>();

export function isHostRefusal(error: unknown): boolean {
  return error !== null && typeof error === "object" && refusals.has(error);
}

async function ask(context: AskContext, input: AskInput): Promise<void> {
  // A host that cannot ask gets no silent reach into other projects.
  const askHost = context.ask?.bind(context);
  if (!askHost) throw new HistoryError("Reading other projects needs the host's permission prompt, which this host does not offer.");
  try {
    // The host waits on the user, not on its thread: the projection's passes need not give way.
    await toolCalls.aside(() => askHost(input));
  } catch (error) {
    // Rethrown as is: the host recognises its own refusal (a rejected prompt ends the turn).
    if (error !== null && typeof error === "object") refusals.add(error);
    throw error;
  }
}

/**
 * Asks before `tool` reads a session of another project. Resolves when allowed; rejects with the
 * host's own error when denied or refused, so the host treats it as it treats its own tools.
 */
export async function askToRead(session: SessionInfo, context: AskContext, tool: string): Promise<void> {
  if (insideProject(session.directory, context)) return;
  const directory = session.directory!;
  await ask(context, {
    permission: OTHER_PROJECTS_PERMISSION,
    patterns: [directory],
    always: [directory],
    metadata: { tool, session_id: session.id, title: session.title, directory },
  });
}

/** Resolves when the caller may read `sessionId`: its own session, its project, or another project the user allows. */
export async function mayRead(source: HistorySource, sessionId: string, context: AskContext, tool: string): Promise<void> {
  if (sessionId === context.sessionID) return;
  const session = await (source.sessionOnce?.(sessionId, context.sessionID) ?? source.getSession(sessionId));
  await askToRead(session, context, tool);
}

/** Asks once before `tool` reaches every project in the store. */
export async function askForEveryProject(context: AskContext, tool: string): Promise<void> {
  await ask(context, {
    permission: OTHER_PROJECTS_PERMISSION,
    patterns: [EVERY_PROJECT],
    always: [EVERY_PROJECT],
    metadata: { tool, scope: "global" },
  });
}
