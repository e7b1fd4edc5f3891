// The pure core's view of a session: host-agnostic, already normalised by the host adapter.
// Nothing in src/history may import the SDK or touch I/O.

export type Role = "user" | "assistant";

export type ToolStatus = "pending" | "running" | "completed" | "error";

export interface TextPart {
  kind: "text";
  id: string;
  text: string;
  /** Added by the host (file reads, agent hand-off, "Continue…"), not typed by the user. */
  synthetic?: boolean;
  /** The host marked the part as not sent to the model. */
  ignored?: boolean;
}

interface ReasoningPart {
  kind: "reasoning";
  id: string;
  text: string;
}

export interface ToolPart {
  kind: "tool";
  id: string;
  callId: string;
  tool: string;
  status: ToolStatus;
  input: unknown;
  output?: string;
  error?: string;
  title?: string;
}

export interface FilePart {
  kind: "file";
  id: string;
  mime: string;
  filename?: string;
  url?: string;
  /** Source path when the host recorded one (file or symbol source). */
  path?: string;
}

interface PatchPart {
  kind: "patch";
  id: string;
  /** Absolute paths as the host stores them. */
  files: string[];
}

interface AgentPart {
  kind: "agent";
  id: string;
  name: string;
}

interface SubtaskPart {
  kind: "subtask";
  id: string;
  prompt: string;
  description: string;
  agent: string;
}

interface CompactionPart {
  kind: "compaction";
  id: string;
  auto: boolean;
  /** Messages from this id on stay in the model's context after the summary (1.x: verbatim; OpenCode 2.1.2: as text in its checkpoint). */
  tailStartId?: string;
}

export type HistoryPart = TextPart | ReasoningPart | ToolPart | FilePart | PatchPart | AgentPart | SubtaskPart | CompactionPart;

export interface HistoryMessage {
  id: string;
  sessionId: string;
  role: Role;
  /**
   * The message's place in its session when the host records one that its ids may not follow (a
   * sequence number); undefined when the ids sort in creation order. All of a session's messages
   * have one or none.
   */
  position?: number;
  /** Epoch milliseconds; undefined when the host stored none. */
  created?: number;
  completed?: number;
  agent?: string;
  /** True only for an assistant compaction summary. */
  summary?: boolean;
  /** Host error name and message (APIError, MessageAbortedError, …). */
  error?: { name: string; message?: string };
  /** Synthetic user message the host adds after an auto compaction. */
  compactionContinue?: boolean;
  /**
   * A user-role message the host wrote rather than the person's prompt (injected context, a
   * skill's text, a shell command the person ran): it belongs to the turn it falls in.
   */
  hostWritten?: boolean;
  parts: HistoryPart[];
}

export interface SessionInfo {
  id: string;
  title: string;
  parentId?: string;
  /** Agent of a subagent session ("general", …), when the host recorded it. */
  agent?: string;
  directory?: string;
  created?: number;
  updated?: number;
}
