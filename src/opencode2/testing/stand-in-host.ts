// A stand-in for OpenCode 2's plugin context (Promise API), for tests. Our own code, shaped by the
// documented contract; it implements what our setup touches and records what the plugin did.
//
// Source (anomalyco/opencode unless noted):
// - Context keys: packages/plugin/src/effect/plugin.ts@07bc181c (app, location, options, agent,
//   aisdk, command, event, integration, mcp, model, generate, permission, plugin, provider,
//   reference, rpc, session, shell, skill, storage, tool, vcs, websearch, worktree); the Promise
//   adapter builds them in packages/plugin/src/promise/adapter.ts@07bc181c.
// - Registration {dispose(): Promise<void>}, `hook(name, cb, options?)`, `transform(cb)` (callbacks
//   synchronous, replayed in registration order): registration.d.ts quoted in the fact sheet (S5),
//   packages/plugin/src/promise/tool.ts@ab8f417a.
// - Tool editor list/get/namespace/add/update/remove: promise/tool.ts@196e4612; the effective name
//   (`[^a-zA-Z0-9_-]` to `_`, namespace prefix): packages/core/src/tool/runtime.ts@0ad62326.
// - Permission domain hook/list/get/reply (adapter@07bc181c); `assert` as PR #46530 proposed it
//   (stored effect/permission.ts copies 71650779794, 67268538571), which the real 2.1.2 has; the
//   variants without it stand for the 2.0.x releases.
// - agent.get answers {location, data: Agent.Info} (packages/protocol/src/groups/agent.ts);
//   Agent.Info.permissions: packages/schema/src/agent.ts@3ece701d.
// - session.get resolves to a bare Session.Info (the adapter unwraps a lone `data`); 2.1.2 also has
//   `context` (a bare array) and `list` ({data, cursor: {previous, next}}), seen on the real host; event
//   envelope {id, created, type, data, location?}: fact sheet §2, §7 (S1).
// - The registration-only context of 1.x's embedded v2 pass: options, agent, aisdk, catalog,
//   command, integration, plugin, reference, skill (node_modules/@opencode-ai/plugin/dist/v2/promise/context.d.ts, 1.18.33).

import type { PermissionAssertInput, PermissionRule } from "../permission.ts";
import type { V2Location } from "../tool-context.ts";

interface Registration {
  readonly dispose: () => Promise<void>;
}

/** A tool as the editor holds it: the added object (its other fields kept as given). */
interface StandInTool {
  name: string;
  description?: string;
  input?: unknown;
  execute?: unknown;
  options?: { readonly namespace?: string; readonly codemode?: boolean; readonly pinned?: boolean; readonly permission?: string };
}

interface StandInToolEditor {
  list(): readonly (StandInTool & { readonly id: string })[];
  get(id: string): (StandInTool & { readonly id: string }) | undefined;
  namespace(namespace: { name: string; description: string }): void;
  add(tool: StandInTool): void;
  update(id: string, update: (tool: StandInTool) => void): void;
  remove(id: string): void;
}

/** Registrations kept in order; disposing one takes it out (what it overrode shows again). */
class Registry<T> {
  readonly active: T[] = [];
  /** Every registration ever made, disposed ones included. */
  readonly made: T[] = [];

  register(item: T): Promise<Registration> {
    this.active.push(item);
    this.made.push(item);
    return Promise.resolve({
      dispose: async () => {
        const index = this.active.indexOf(item);
        if (index >= 0) this.active.splice(index, 1);
      },
    });
  }
}

function effectiveName(tool: StandInTool): string {
  const name = tool.name.replace(/[^a-zA-Z0-9_-]/g, "_");
  const namespace = tool.options?.namespace;
  return namespace === undefined ? name : `${namespace.replaceAll(".", "_")}_${name}`;
}

type Transform<E> = (editor: E) => void;

/** `ctx.tool`: transforms replayed over the built-in tools into the effective set. */
class StandInToolDomain {
  readonly transforms = new Registry<Transform<StandInToolEditor>>();
  readonly hooks = new Registry<{ name: string; callback: (event: unknown) => unknown }>();
  /** Objects passed to `add` during the latest replay, in order. */
  added: StandInTool[] = [];
  reloads = 0;

  constructor(private readonly builtins: readonly StandInTool[] = []) {}

  readonly transform = (callback: Transform<StandInToolEditor>): Promise<Registration> => {
    const registration = this.transforms.register(callback);
    this.effective(); // the host applies a new transform when it is registered
    return registration;
  };

  readonly reload = async (): Promise<void> => {
    this.reloads++;
  };

  readonly list = async () => [...this.effective().values()];

  readonly hook = (name: string, callback: (event: unknown) => unknown): Promise<Registration> => this.hooks.register({ name, callback });

  /** Replays every active transform in registration order; the result is keyed by effective name. */
  effective(): Map<string, StandInTool & { readonly id: string }> {
    const tools = new Map<string, StandInTool & { readonly id: string }>();
    this.added = [];
    for (const tool of this.builtins) tools.set(effectiveName(tool), { ...tool, id: effectiveName(tool) });
    const editor: StandInToolEditor = {
      list: () => [...tools.values()],
      get: (id) => tools.get(id),
      namespace: () => {},
      add: (tool) => {
        if (typeof tool !== "object" || tool === null || typeof tool.name !== "string") {
          throw new TypeError("editor.add takes one object carrying `name`");
        }
        this.added.push(tool);
        tools.set(effectiveName(tool), { ...tool, id: effectiveName(tool) });
      },
      update: (id, update) => {
        const tool = tools.get(id);
        if (tool) update(tool);
      },
      remove: (id) => {
        tools.delete(id);
      },
    };
    for (const transform of this.transforms.active) transform(editor);
    return tools;
  }
}

/** A session's info as `session.get` resolves it. */
interface StandInSession {
  readonly id: string;
  readonly parentID?: string;
  readonly projectID?: string;
  readonly title?: string;
  readonly location?: { readonly directory: string };
  readonly [key: string]: unknown;
}

/**
 * `ctx.session`: hook registration, hooks run in order, and the reads 2.1.2 offers over known
 * sessions (`get`, `context`, `list` as `{data, cursor}`), each recorded in `reads`: on 2.1.2 they
 * answer for any project's session without asking the user.
 */
class StandInSessionDomain {
  readonly hooks = new Registry<{ name: string; callback: (event: unknown) => unknown; options?: unknown }>();
  readonly sessions = new Map<string, StandInSession>();
  /** Every get/context/list call, as `<method> <sessionID or "*">`. */
  readonly reads: string[] = [];

  readonly hook = (name: string, callback: (event: unknown) => unknown, options?: unknown): Promise<Registration> =>
    this.hooks.register({ name, callback, options });

  readonly get = async (input: { sessionID: string }): Promise<StandInSession> => {
    this.reads.push(`get ${input.sessionID}`);
    const session = this.sessions.get(input.sessionID);
    if (!session) throw new Error(`Session not found: ${input.sessionID}`);
    return session;
  };

  readonly context = async (input: { sessionID: string }): Promise<unknown[]> => {
    this.reads.push(`context ${input.sessionID}`);
    if (!this.sessions.has(input.sessionID)) throw new Error(`Session not found: ${input.sessionID}`);
    return [];
  };

  readonly list = async (): Promise<{ data: StandInSession[]; cursor: { previous?: string; next?: string } }> => {
    this.reads.push("list *");
    return { data: [...this.sessions.values()], cursor: {} };
  };

  /** Runs the active callbacks for `name` one after another, as the host does; the event is mutated in place. */
  async run<E>(name: string, event: E): Promise<E> {
    for (const hook of this.hooks.active) if (hook.name === name) await hook.callback(event);
    return event;
  }
}

/** The envelope `event.subscribe` yields (the payload in `data`). */
interface StandInEvent {
  readonly id: string;
  readonly created: number;
  readonly type: string;
  readonly data: unknown;
  readonly location?: { readonly directory: string };
}

/** `ctx.event`: subscriptions receive what is emitted after they start (no replay). */
class StandInEventDomain {
  private readonly listeners = new Set<(event: StandInEvent) => void>();
  private sequence = 0;

  get subscribers(): number {
    return this.listeners.size;
  }

  readonly subscribe = (options: { signal?: AbortSignal } = {}): AsyncIterable<StandInEvent> => {
    const listeners = this.listeners;
    return {
      [Symbol.asyncIterator]() {
        const queue: StandInEvent[] = [];
        let wake: (() => void) | undefined;
        let done = false;
        const listener = (event: StandInEvent) => {
          queue.push(event);
          wake?.();
        };
        const close = () => {
          done = true;
          listeners.delete(listener);
          wake?.();
        };
        listeners.add(listener);
        options.signal?.addEventListener("abort", close, { once: true });
        if (options.signal?.aborted) close();
        return {
          async next(): Promise<IteratorResult<StandInEvent>> {
            while (queue.length === 0 && !done) await new Promise<void>((resolve) => (wake = resolve));
            wake = undefined;
            const event = queue.shift();
            return event ? { done: false, value: event } : { done: true, value: undefined };
          },
          async return(): Promise<IteratorResult<StandInEvent>> {
            close();
            return { done: true, value: undefined };
          },
        };
      },
    };
  };

  emit(type: string, data: unknown, location?: { directory: string }): void {
    const event: StandInEvent = { id: `evt_${++this.sequence}`, created: Date.now(), type, data, ...(location ? { location } : {}) };
    for (const listener of this.listeners) listener(event);
  }
}

/** How the stand-in's permission domain answers. */
export type PermissionVariant =
  /** `assert` present (PR #46530): resolves, or rejects with `refusal`. */
  | { kind: "assert"; refusal?: Error }
  /** No assert; the agents' rules are readable through `agent.get` (as at adapter.ts@07bc181c). */
  | { kind: "rules" }
  /** No assert and no agent.get: rules cannot be read (an older or reduced context). */
  | { kind: "neither" };

/** The agents' built-in rules at packages/schema/src/agent.ts@3ece701d (Agent.Info.empty). */
export const DEFAULT_AGENT_RULES: readonly PermissionRule[] = [
  { action: "*", resource: "*", effect: "allow" },
  { action: "external_directory", resource: "*", effect: "ask" },
];

function permissionDomain(variant: PermissionVariant, asserted: PermissionAssertInput[], hooks: Registry<unknown>) {
  const base = {
    hook: (name: string, callback: (event: unknown) => unknown) => hooks.register({ name, callback }),
    list: async () => [],
    get: async () => undefined,
    reply: async () => undefined,
  };
  if (variant.kind !== "assert") return base;
  return {
    ...base,
    assert: async (input: PermissionAssertInput) => {
      asserted.push(input);
      if (variant.refusal) throw variant.refusal;
    },
  };
}

function reloadable() {
  const transforms = new Registry<Transform<unknown>>();
  return { transforms, domain: { transform: (callback: Transform<unknown>) => transforms.register(callback), reload: async () => {} } };
}

/** An agent as the stand-in keeps it (Agent.Info, the fields our code reads). */
interface StandInAgent {
  id: string;
  mode: "subagent" | "primary" | "all";
  hidden: boolean;
  permissions: PermissionRule[];
}

interface StandInAgentEditor {
  list(): readonly StandInAgent[];
  get(id: string): StandInAgent | undefined;
  default(id: string | undefined): void;
  update(id: string, update: (agent: StandInAgent) => void): void;
  add(agent: StandInAgent): void;
  remove(id: string): void;
}

/** `ctx.agent`: transforms replayed over the configured agents; `get` only where rules are readable. */
class StandInAgentDomain {
  readonly transforms = new Registry<Transform<StandInAgentEditor>>();
  readonly gets: string[] = [];

  constructor(private readonly agents: readonly StandInAgent[]) {}

  readonly transform = (callback: Transform<StandInAgentEditor>): Promise<Registration> => this.transforms.register(callback);
  readonly reload = async (): Promise<void> => {};

  /** The agents after every active transform, in registration order (each replay starts afresh). */
  effective(): Map<string, StandInAgent> {
    const agents = new Map(this.agents.map((agent) => [agent.id, structuredClone(agent)]));
    const editor: StandInAgentEditor = {
      list: () => [...agents.values()],
      get: (id) => agents.get(id),
      default: () => {},
      update: (id, update) => {
        const agent = agents.get(id);
        if (agent) update(agent);
      },
      add: (agent) => void agents.set(agent.id, agent),
      remove: (id) => void agents.delete(id),
    };
    for (const transform of this.transforms.active) transform(editor);
    return agents;
  }

  /** agent.get as the adapter resolves it: {location, data: Agent.Info} (not unwrapped). */
  readable(location: V2Location) {
    return {
      transform: this.transform,
      reload: this.reload,
      list: async () => ({ location, data: [...this.effective().values()] }),
      get: async (input: { agentID: string }) => {
        this.gets.push(input.agentID);
        const agent = this.effective().get(input.agentID);
        if (!agent) throw new Error(`Agent not found: ${input.agentID}`);
        return { location, data: agent };
      },
    };
  }
}

export interface StandInOptions {
  location?: V2Location;
  /** The `build` agent's rules before any plugin transform; default DEFAULT_AGENT_RULES. */
  agentRules?: readonly PermissionRule[];
  options?: Record<string, unknown>;
  permission?: PermissionVariant;
  /** Tools the host has before any plugin (built-ins). */
  builtinTools?: readonly StandInTool[];
}

/** The full OpenCode 2 context, with handles on what the plugin registered. */
export function standInHost(options: StandInOptions = {}) {
  const location = options.location ?? { directory: "/work/project", project: { id: "prj_standin", directory: "/work/project" } };
  const variant = options.permission ?? { kind: "neither" };
  const asserted: PermissionAssertInput[] = [];
  const permissionHooks = new Registry<unknown>();
  const tool = new StandInToolDomain(options.builtinTools);
  const session = new StandInSessionDomain();
  const event = new StandInEventDomain();
  const registrationOnly = standInRegistrationOnlyContext(options.options ?? {});
  const agents = new StandInAgentDomain([{ id: "build", mode: "primary", hidden: false, permissions: [...(options.agentRules ?? DEFAULT_AGENT_RULES)] }]);
  const agent = variant.kind === "rules" ? agents.readable(location) : { transform: agents.transform, reload: agents.reload };
  const context = {
    ...registrationOnly.context,
    app: { name: "opencode", version: "2.0.0-standin", channel: "latest" },
    location,
    agent,
    tool,
    session,
    event,
    permission: permissionDomain(variant, asserted, permissionHooks),
  };
  return { context, tool, session, event, agents, asserted, permissionHooks, transforms: registrationOnly.transforms };
}

/** The context of 1.x's embedded v2 pass: registration domains only, no tool/session/event. */
export function standInRegistrationOnlyContext(options: Record<string, unknown> = {}) {
  const domains = {
    agent: reloadable(),
    catalog: reloadable(),
    command: reloadable(),
    integration: reloadable(),
    reference: reloadable(),
    skill: reloadable(),
  };
  const aisdkHooks = new Registry<unknown>();
  const context = {
    options,
    agent: domains.agent.domain,
    aisdk: { hook: (name: string, callback: (event: unknown) => unknown) => aisdkHooks.register({ name, callback }) },
    catalog: domains.catalog.domain,
    command: domains.command.domain,
    integration: {
      ...domains.integration.domain,
      connection: { active: async () => undefined, resolve: async () => undefined },
    },
    plugin: { add: async () => {}, remove: async () => {} },
    reference: domains.reference.domain,
    skill: domains.skill.domain,
  };
  const transforms = Object.fromEntries(Object.entries(domains).map(([name, { transforms }]) => [name, transforms])) as {
    [K in keyof typeof domains]: Registry<Transform<unknown>>;
  };
  return { context, transforms, aisdkHooks };
}
