// OpenCode 2's stored history → the core's types. A `session_message` row holds one message: its
// `data` is the message without `id` and `type` (packages/schema/src/session-message.ts). Content
// parts carry no ids, so each gets one made from its message's id and its place in the content
// array (which only grows while a message streams): stable across reads, and a valid `prt_` id.
// Defensive like the 1.x mapper: the shapes moved between 2.0.x builds, nothing here throws.

import type { HistoryMessage, HistoryPart, SessionInfo, ToolStatus } from "../../history/types.ts";
import { number, object, string, type Json } from "../json-fields.ts";
import type { HostDecode } from "../reader.ts";

/** One `session_message` row as the OpenCode 2 reader returns it. */
export interface V2MessageRow {
  id: string;
  /** The message type (`user`, `assistant`, `compaction`, …). */
  type: string;
  /** The session's own order of its messages (the host reads by it). */
  seq: number;
  timeCreated: number;
  timeUpdated: number;
  /** The row's `data` JSON, parsed; undefined when it does not parse as an object. */
  data: Json | undefined;
}

/** One `session_v2` row as the OpenCode 2 reader returns it (the columns it reads). */
export interface V2SessionRow {
  id: string;
  project_id: string;
  parent_id: string | null;
  title: string | null;
  directory: string | null;
  agent: string | null;
  time_created: number | null;
  time_updated: number | null;
}

function array(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The tools' part-id pattern allows 96 characters after `prt_` from [A-Za-z0-9_-]. */
const PART_ID_CHARS = 96;

/** A part id made from the message id and a suffix naming the part's place in the message. */
export function partId(messageId: string, suffix: string): string {
  const base = messageId.replace(/^msg_/, "").replace(/[^A-Za-z0-9_-]/g, "-");
  return `prt_${base.slice(0, PART_ID_CHARS - suffix.length - 1)}_${suffix}`;
}

/** Tool content (`text` and `file` items) as the text the model read. */
function contentText(content: unknown): string | undefined {
  const pieces: string[] = [];
  for (const item of array(content)) {
    const entry = object(item);
    if (entry?.type === "text" && typeof entry.text === "string") pieces.push(entry.text);
    else if (entry?.type === "file") pieces.push(`[file ${string(entry.name) ?? string(entry.uri) ?? ""} ${string(entry.mime) ?? ""}]`.replace(/\s+]/, "]"));
  }
  return pieces.length > 0 ? pieces.join("\n") : undefined;
}

/** Streaming input is the model's partial JSON text: parsed when it already is whole. */
function toolInput(state: Json): unknown {
  if (typeof state.input !== "string") return state.input;
  try {
    return JSON.parse(state.input) as unknown;
  } catch {
    return state.input === "" ? undefined : state.input;
  }
}

const TOOL_STATUS: Record<string, ToolStatus> = { streaming: "pending", pending: "pending", running: "running", completed: "completed", error: "error" };

function toolPart(id: string, tool: Json): HistoryPart {
  const state = object(tool.state) ?? {};
  const status = TOOL_STATUS[string(state.status) ?? ""] ?? "pending";
  const error = object(state.error);
  return {
    kind: "tool",
    id,
    callId: string(tool.id) ?? "",
    tool: string(tool.name) ?? "unknown",
    status,
    input: toolInput(state),
    output: status === "completed" || status === "error" ? contentText(state.content) : undefined,
    error: status === "error" ? (string(error?.message) ?? string(state.error) ?? "error") : undefined,
  };
}

function assistantParts(messageId: string, data: Json): HistoryPart[] {
  const parts: HistoryPart[] = [];
  array(data.content).forEach((raw, index) => {
    const part = object(raw);
    const id = partId(messageId, String(index));
    if (part?.type === "text") parts.push({ kind: "text", id, text: string(part.text) ?? "" });
    else if (part?.type === "reasoning") parts.push({ kind: "reasoning", id, text: string(part.text) ?? "" });
    else if (part?.type === "tool") parts.push(toolPart(id, part));
  });
  // The files the step changed, relative to the session's directory.
  const files = array(object(data.snapshot)?.files).filter((file): file is string => typeof file === "string");
  if (files.length > 0) parts.push({ kind: "patch", id: partId(messageId, "files"), files });
  return parts;
}

function userParts(messageId: string, data: Json): HistoryPart[] {
  const parts: HistoryPart[] = [{ kind: "text", id: partId(messageId, "text"), text: string(data.text) ?? "" }];
  array(data.files).forEach((raw, index) => {
    const file = object(raw);
    if (!file) return;
    const uri = string(file.uri) ?? string(object(file.source)?.uri);
    parts.push({
      kind: "file",
      id: partId(messageId, `file${index}`),
      mime: string(file.mime) ?? "application/octet-stream",
      filename: string(file.name),
      // data: URIs can be megabytes of base64: keep only file references.
      url: uri?.startsWith("data:") ? undefined : uri,
      path: uri?.startsWith("file://") ? decodeURIComponent(uri.slice("file://".length)) : undefined,
    });
  });
  array(data.agents).forEach((raw, index) => {
    const name = string(object(raw)?.name);
    if (name) parts.push({ kind: "agent", id: partId(messageId, `agent${index}`), name });
  });
  // Skills the prompt activated: their text went to the model with it, not typed by the person.
  array(data.skills).forEach((raw, index) => {
    const text = string(object(raw)?.text);
    if (text) parts.push({ kind: "text", id: partId(messageId, `skill${index}`), text, synthetic: true });
  });
  return parts;
}

/** A shell command the person ran from the prompt, as the tool call it amounts to. */
function shellPart(messageId: string, data: Json): HistoryPart {
  const status = string(data.status);
  const output = string(data.output) ?? string(object(data.output)?.output);
  const done = status !== undefined ? status !== "running" : object(data.time)?.completed !== undefined;
  const failed = status === "timeout" || status === "killed";
  return {
    kind: "tool",
    id: partId(messageId, "shell"),
    callId: string(data.shellID) ?? string(data.callID) ?? "",
    tool: "shell",
    status: !done ? "running" : failed ? "error" : "completed",
    input: { command: string(data.command) ?? "" },
    output: output || undefined,
    error: failed ? status : undefined,
  };
}

/** Text the host put in front of the model: searchable, marked as not the person's words. */
function hostText(messageId: string, text: unknown): HistoryPart[] {
  return [{ kind: "text", id: partId(messageId, "text"), text: string(text) ?? "", synthetic: true }];
}

function errorOf(value: unknown): HistoryMessage["error"] {
  const error = object(value);
  return error ? { name: string(error.type) ?? "Error", message: string(error.message) } : undefined;
}

/** One row; undefined for types that carry no history (agent, model and location switches, idle). */
export function mapV2Message(row: V2MessageRow, sessionId: string): HistoryMessage | undefined {
  const data = row.data;
  if (!data || typeof row.id !== "string") return undefined;
  const time = object(data.time);
  const base = { id: row.id, sessionId, position: row.seq, created: number(time?.created) ?? row.timeCreated };
  switch (row.type) {
    case "user":
      return { ...base, role: "user", parts: userParts(row.id, data) };
    case "synthetic":
    case "system":
    case "skill":
      return { ...base, role: "user", hostWritten: true, parts: hostText(row.id, data.text) };
    case "shell":
      return { ...base, role: "user", hostWritten: true, completed: number(time?.completed), parts: [shellPart(row.id, data)] };
    case "assistant":
      return {
        ...base,
        role: "assistant",
        completed: number(time?.completed),
        agent: string(data.agent),
        error: errorOf(data.error),
        parts: assistantParts(row.id, data),
      };
    case "compaction": {
      // The model's context restarts at a completed compaction: its summary, then the newest
      // messages before it as text. 2.1.2 names the first of those in `metadata.keepID` and they
      // leave the caller's view with the summary (the model has them); builds that store them as
      // `recent` text name none, and they stay visible as themselves.
      if (data.status === "completed") {
        return {
          ...base,
          role: "assistant",
          agent: "compaction",
          summary: true,
          parts: [
            { kind: "compaction", id: partId(row.id, "compaction"), auto: data.reason === "auto", tailStartId: string(object(data.metadata)?.keepID) },
            { kind: "text", id: partId(row.id, "summary"), text: string(data.summary) ?? "" },
          ],
        };
      }
      // A failed one changed nothing the model sees; a running one has no summary yet.
      if (data.status === "failed") return { ...base, role: "assistant", agent: "compaction", error: errorOf(data.error), parts: [] };
      return undefined;
    }
    default:
      return undefined;
  }
}

export function mapV2Session(raw: unknown): SessionInfo | undefined {
  const row = object(raw);
  const id = string(row?.id);
  if (!row || !id) return undefined;
  return {
    id,
    title: string(row.title) ?? "",
    parentId: string(row.parent_id),
    agent: string(row.agent),
    directory: string(row.directory),
    created: number(row.time_created),
    updated: number(row.time_updated),
  };
}

/** OpenCode 2: `session_message` rows and `session_v2` rows. */
export const V2_DECODE: HostDecode<V2MessageRow> = { message: mapV2Message, session: mapV2Session };
