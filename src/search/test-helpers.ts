// Builders for search tests, the eval and the bench: messages, sessions, an in-memory source.

import { defaultConfig, type EngramConfig } from "../config/schema.ts";
import { HistoryError } from "../history/errors.ts";
import type { HistoryMessage, HistoryPart, Role, SessionInfo } from "../history/types.ts";
import { toolVisibility } from "../history/tool-visibility.ts";
import type { HistorySource } from "../host/source.ts";
import { createSearchService, type SearchService } from "./service.ts";

let counter = 0;

/** Ids that sort in creation order, like the host's. */
export function nextId(prefix: string): string {
  counter++;
  return `${prefix}_${counter.toString().padStart(10, "0")}`;
}

export function textMessage(sessionId: string, role: Role, text: string, created: number, extra: HistoryPart[] = []): HistoryMessage {
  return {
    id: nextId("msg"),
    sessionId,
    role,
    created,
    parts: [{ kind: "text", id: nextId("prt"), text }, ...extra],
  };
}

export function toolPart(tool: string, input: unknown, output: string): HistoryPart {
  return { kind: "tool", id: nextId("prt"), callId: nextId("call"), tool, status: "completed", input, output };
}

export function reasoningPart(text: string): HistoryPart {
  return { kind: "reasoning", id: nextId("prt"), text };
}

export class MemorySource implements HistorySource {
  readonly sessions = new Map<string, { info: SessionInfo; messages: HistoryMessage[] }>();
  loads = 0;

  add(info: SessionInfo, messages: HistoryMessage[]): void {
    this.sessions.set(info.id, { info, messages });
  }

  async listSessions(): Promise<SessionInfo[]> {
    return [...this.sessions.values()].map((s) => s.info).sort((a, b) => (b.updated ?? 0) - (a.updated ?? 0));
  }

  async getSession(sessionId: string): Promise<SessionInfo> {
    const found = this.sessions.get(sessionId);
    if (!found) throw new HistoryError(`session ${sessionId} not found; use history_sessions to list the project's sessions`);
    return found.info;
  }

  async loadMessages(sessionId: string): Promise<HistoryMessage[]> {
    this.loads++;
    const found = this.sessions.get(sessionId);
    if (!found) throw new HistoryError(`session ${sessionId} not found; use history_sessions to list the project's sessions`);
    return found.messages.slice();
  }
}

export function testService(source: HistorySource, patch: (config: EngramConfig) => void = () => {}): SearchService {
  const config = defaultConfig();
  patch(config);
  const visibility = toolVisibility(config.show_tool_input, config.show_tool_output);
  return createSearchService({ source, config: () => config, visibility: () => visibility });
}
