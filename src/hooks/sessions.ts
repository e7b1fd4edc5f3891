// What the hooks need to know about a session beyond one hook's input: its parent (a subagent
// session has one) and the agent answering in it. Learned from events and hook inputs as they
// pass, and from the host for sessions created before the plugin started; cached, misses too.

import { HistoryError } from "../history/errors.ts";
import type { Log } from "../util/log.ts";
import type { HistorySource } from "../history/source.ts";
import { BoundedMap } from "../util/bounded-map.ts";

const MAX_SESSIONS = 2000;

export class SessionFacts {
  /** Parent session id per session; null when the session is a root (or unknown to the host). */
  private readonly parents = new BoundedMap<string, string | null>(MAX_SESSIONS);
  private readonly agents = new BoundedMap<string, string>(MAX_SESSIONS);
  private readonly lookups = new Map<string, Promise<string | null>>();

  constructor(
    private readonly source: HistorySource,
    private readonly log: Log,
  ) {}

  /** A session's info as an event or the host reported it. */
  observeSession(info: { id?: unknown; parentID?: unknown; agent?: unknown }): void {
    if (typeof info.id !== "string") return;
    this.parents.set(info.id, typeof info.parentID === "string" && info.parentID !== "" ? info.parentID : null);
    if (typeof info.agent === "string" && info.agent !== "" && !this.agents.has(info.id)) {
      this.agents.set(info.id, info.agent);
    }
  }

  /** The agent a new prompt of the session goes to (chat.message, the latest user message). */
  observeAgent(sessionId: string, agent: unknown): void {
    if (typeof agent === "string" && agent !== "") this.agents.set(sessionId, agent);
  }

  agentOf(sessionId: string): string | undefined {
    return this.agents.get(sessionId);
  }

  /** The parent session id, or undefined for a root session or when the host could not say. */
  async parentOf(sessionId: string): Promise<string | undefined> {
    const known = this.parents.get(sessionId);
    if (known !== undefined) return known ?? undefined;
    let lookup = this.lookups.get(sessionId);
    if (!lookup) {
      lookup = this.lookUp(sessionId).finally(() => this.lookups.delete(sessionId));
      this.lookups.set(sessionId, lookup);
    }
    return (await lookup) ?? undefined;
  }

  private async lookUp(sessionId: string): Promise<string | null> {
    try {
      const info = await this.source.getSession(sessionId);
      const parent = info.parentId ?? null;
      this.parents.set(sessionId, parent);
      if (info.agent !== undefined && !this.agents.has(sessionId)) this.agents.set(sessionId, info.agent);
      return parent;
    } catch (error) {
      // Unknown to the host: remember the miss. Any other failure may pass; ask again next time.
      if (error instanceof HistoryError) this.parents.set(sessionId, null);
      else this.log("warn", `engram: could not look up session ${sessionId}: ${String(error)}`);
      return null;
    }
  }
}
