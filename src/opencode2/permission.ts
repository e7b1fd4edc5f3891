// Reads outside the caller's project on OpenCode 2. A v2 tool context has no `ask`. In order:
// 1. `ctx.permission.assert` when the host offers it (2.1.2 does; the 2.0.2x releases did not): the
//    host evaluates the user's rules and prompts on `ask`; its rejection is passed on as on 1.x.
//    Seen on the real 2.1.2: the request `{action: "engram_other_projects", resources, save,
//    metadata}` is listed at GET /api/session/:id/permission; `reject` fails the call ("aborted: The
//    user declined this tool call") and ends the turn, `once` lets the read through.
//    2.1.2's `ctx.session.get` and `context` answer for any project's session with no permission:
//    this plugin reads other projects only through the store, behind this gate, never through them.
// Only a host without `assert`:
// 2. The agent's permission rules, read through `ctx.agent.get`: the last rule matching our action
//    and the resource decides when it says allow or deny. The agents' built-in `* * allow` rule is
//    no consent: on 1.x other projects ask by default, and they must not open silently here.
// 3. Our config `permission.other_projects_without_prompt`.
// 4. Otherwise a refusal that names the `permissions` rule and our key that would allow the read.
// With assert the host evaluates the same rules, where `* * allow` would let our action through
// unasked; askOtherProjectsByDefault (an agent transform, as 1.x's defaultOtherProjectsToAsk is a
// config hook) puts an `ask` for our action right after that blanket rule, so the host prompts
// unless a later rule of the user's says otherwise.
// Sources: docs/search-notes.md, "OpenCode 2 sources".

import { HistoryError } from "../history/errors.ts";
import { EVERY_PROJECT, OTHER_PROJECTS_PERMISSION, type AskContext } from "../tools/reach.ts";
import type { V2Registration } from "./types.ts";

type Ask = NonNullable<AskContext["ask"]>;
type AskInput = Parameters<Ask>[0];

type RuleEffect = "allow" | "deny" | "ask";

/** One OpenCode 2 permission rule; a later matching rule overrides an earlier one. */
export interface PermissionRule {
  readonly action: string;
  readonly resource: string;
  readonly effect: RuleEffect;
}

/** What `ctx.permission.assert` takes (PR #46530; 2.1.2); no `source`: its key moved between builds, and a wrong one fails the host's decoding. */
export interface PermissionAssertInput {
  readonly sessionID: string;
  readonly agent?: string;
  readonly action: string;
  readonly resources: readonly string[];
  readonly save?: readonly string[];
  readonly metadata?: Record<string, unknown>;
}

/**
 * The slices of the OpenCode 2 plugin context the gate reads; any may be missing. Their methods
 * are feature-detected: `permission.assert(PermissionAssertInput): Promise<void>` and
 * `agent.get({agentID}): Promise<unknown>`.
 */
export interface PermissionHost {
  readonly permission?: object;
  readonly agent?: object;
}

type Method<I> = (input: I) => Promise<unknown>;

/** `domain[name]` bound to its domain when it is a function. */
function method<I>(domain: object | undefined, name: string): Method<I> | undefined {
  const value = domain === undefined ? undefined : (domain as Record<string, unknown>)[name];
  return typeof value === "function" ? (value.bind(domain) as Method<I>) : undefined;
}

/** The call asking: its session, and the agent whose rules apply. */
export interface AskingCall {
  readonly sessionID: string;
  readonly agent?: string;
}

/** OpenCode's wildcard: `*` any run of characters, `?` one character, `\` read as `/`. */
export function wildcardMatch(input: string, pattern: string): boolean {
  const source = pattern
    .replaceAll("\\", "/")
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${source}$`, "s").test(input.replaceAll("\\", "/"));
}

/** The agents' blanket default; it allows every action, ours included, without the user's word. */
function isBlanketAllow(rule: PermissionRule): boolean {
  return rule.action === "*" && rule.effect === "allow";
}

/** The effect of the last rule that matches `action` on `resource`, blanket allows skipped. */
function effectFor(rules: readonly PermissionRule[], action: string, resource: string): RuleEffect | undefined {
  for (let index = rules.length - 1; index >= 0; index--) {
    const rule = rules[index]!;
    if (isBlanketAllow(rule)) continue;
    if (wildcardMatch(action, rule.action) && wildcardMatch(resource, rule.resource)) return rule.effect;
  }
  return undefined;
}

/** `deny` when any resource is denied, `allow` when all are allowed, else undefined (ask or no rule). */
export function decideByRules(rules: readonly PermissionRule[], action: string, resources: readonly string[]): "allow" | "deny" | undefined {
  const effects = resources.map((resource) => effectFor(rules, action, resource));
  if (effects.includes("deny")) return "deny";
  return effects.length > 0 && effects.every((effect) => effect === "allow") ? "allow" : undefined;
}

function isRule(value: unknown): value is PermissionRule {
  if (value === null || typeof value !== "object") return false;
  const rule = value as Record<string, unknown>;
  return typeof rule.action === "string" && typeof rule.resource === "string" && (rule.effect === "allow" || rule.effect === "deny" || rule.effect === "ask");
}

/** The `permissions` of an agent.get answer: `{location, data: Agent.Info}`, or a bare Agent.Info. */
function rulesOf(answer: unknown): PermissionRule[] | undefined {
  if (answer === null || typeof answer !== "object") return undefined;
  const record = answer as Record<string, unknown>;
  const info = Array.isArray(record.permissions) ? record : (record.data as Record<string, unknown> | undefined);
  const permissions = info?.permissions;
  return Array.isArray(permissions) ? permissions.filter(isRule) : undefined;
}

/** The calling agent's rules, or undefined when the host does not tell them. */
async function agentRules(host: PermissionHost, agentID: string | undefined): Promise<readonly PermissionRule[] | undefined> {
  const get = method<{ agentID: string }>(host.agent, "get");
  if (!agentID || !get) return undefined;
  try {
    return rulesOf(await get({ agentID }));
  } catch {
    return undefined; // an agent the host does not know: nothing read, nothing allowed
  }
}

function what(input: AskInput): string {
  const resource = input.patterns[0] ?? EVERY_PROJECT;
  return resource === EVERY_PROJECT ? "every project's history" : `the history of another project (${resource})`;
}

function refusal(input: AskInput): HistoryError {
  const resource = input.patterns[0] ?? EVERY_PROJECT;
  const rule = JSON.stringify({ action: input.permission, resource, effect: "allow" });
  return new HistoryError(
    `Not read: ${what(input)} needs the user's permission, and this OpenCode cannot ask for it. ` +
      `The user can allow it with the rule ${rule} in "permissions" of opencode.json, ` +
      `or with "permission": {"other_projects_without_prompt": true} in opencode-engram.jsonc. Do not retry until then.`,
  );
}

function denial(input: AskInput): HistoryError {
  return new HistoryError(`Not read: the user's permission rules deny ${input.permission} for ${what(input)}.`);
}

/**
 * The `ask` of an OpenCode 2 call's tool context: resolves when the read may go on, rejects with the
 * host's own error (assert) or with a HistoryError that says which setting would allow it.
 */
export function otherProjectsAsk(host: PermissionHost, call: AskingCall, allowWithoutPrompt: () => boolean): Ask {
  return async (input) => {
    const assert = method<PermissionAssertInput>(host.permission, "assert");
    if (assert) {
      const request: PermissionAssertInput = {
        sessionID: call.sessionID,
        action: input.permission,
        resources: input.patterns,
        save: input.always,
        metadata: input.metadata,
        ...(call.agent ? { agent: call.agent } : {}),
      };
      await assert(request);
      return;
    }
    const rules = await agentRules(host, call.agent);
    const verdict = rules && decideByRules(rules, input.permission, input.patterns);
    if (verdict === "allow") return;
    if (verdict === "deny") throw denial(input);
    if (allowWithoutPrompt()) return;
    throw refusal(input);
  };
}

/** Our `ask` rule for every project: what 1.x's config hook adds when the user names no rule. */
export const OTHER_PROJECTS_ASK: PermissionRule = { action: OTHER_PROJECTS_PERMISSION, resource: EVERY_PROJECT, effect: "ask" };

/**
 * Puts OTHER_PROJECTS_ASK right after the last blanket `* * allow` of an agent's rules, so that
 * rule no longer lets other projects through unasked while every later rule (the user's) still
 * wins. Rules without a blanket allow are left alone: no match already means ask.
 */
export function askOtherProjectsByDefault(permissions: PermissionRule[]): void {
  let last = -1;
  permissions.forEach((rule, index) => {
    if (isBlanketAllow(rule)) last = index;
  });
  if (last < 0) return;
  const next = permissions[last + 1];
  if (next && next.action === OTHER_PROJECTS_ASK.action && next.resource === OTHER_PROJECTS_ASK.resource && next.effect === "ask") return; // a replay
  permissions.splice(last + 1, 0, { ...OTHER_PROJECTS_ASK });
}

interface V2AgentEditor {
  list(): readonly { readonly id: string }[];
  update(id: string, update: (agent: { permissions: PermissionRule[] }) => void): void;
}

/**
 * Registers askOtherProjectsByDefault for every agent through `agent.transform`, or resolves to
 * undefined when the context has no such domain. Dispose the Registration with the plugin.
 */
export async function registerOtherProjectsAsk(agent: object | undefined): Promise<V2Registration | undefined> {
  const transform = method<(editor: V2AgentEditor) => void>(agent, "transform");
  if (!transform) return undefined;
  return (await transform((editor) => {
    for (const { id } of editor.list()) editor.update(id, (info) => askOtherProjectsByDefault(info.permissions));
  })) as V2Registration;
}
