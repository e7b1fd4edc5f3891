// Loose shapes of what the host returns over HTTP; only the fields the harness and tests read.
// Deliberately not the SDK types, so e2e tests see exactly the wire JSON.

export interface HostPart {
  id: string;
  sessionID: string;
  messageID: string;
  type: string;
  [key: string]: unknown;
}

export interface HostToolState {
  status: "pending" | "running" | "completed" | "error";
  input?: unknown;
  output?: string;
  error?: string;
  title?: string;
  metadata?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface HostToolPart extends HostPart {
  type: "tool";
  callID: string;
  tool: string;
  state: HostToolState;
}

export interface HostMessageInfo {
  id: string;
  sessionID: string;
  role: "user" | "assistant";
  parentID?: string;
  agent?: string;
  mode?: string;
  summary?: unknown;
  finish?: string;
  error?: { name: string; data?: unknown };
  time: { created: number; completed?: number };
  [key: string]: unknown;
}

export interface HostMessage {
  info: HostMessageInfo;
  parts: HostPart[];
}

export interface HostSession {
  id: string;
  parentID?: string;
  title: string;
  directory?: string;
  [key: string]: unknown;
}

export function isToolPart(part: HostPart): part is HostToolPart {
  return part.type === "tool";
}
