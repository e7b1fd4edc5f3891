// Host JSON → the core's types. Defensive by design: the host's shapes change between versions,
// so every field is checked, unknown part types are skipped, and nothing here throws.

import type { HistoryMessage, HistoryPart, SessionInfo, ToolStatus } from "../history/types.ts";
import { number, object, string } from "./json-fields.ts";
import type { HostDecode } from "./reader.ts";

const TOOL_STATUSES = new Set<ToolStatus>(["pending", "running", "completed", "error"]);

function mapPart(raw: unknown): HistoryPart | undefined {
  const part = object(raw);
  const id = string(part?.id);
  if (!part || !id) return undefined;
  switch (part.type) {
    case "text":
      return {
        kind: "text",
        id,
        text: string(part.text) ?? "",
        synthetic: part.synthetic === true || undefined,
        ignored: part.ignored === true || undefined,
      };
    case "reasoning":
      return { kind: "reasoning", id, text: string(part.text) ?? "" };
    case "tool": {
      const state = object(part.state) ?? {};
      const status = string(state.status) as ToolStatus | undefined;
      return {
        kind: "tool",
        id,
        callId: string(part.callID) ?? "",
        tool: string(part.tool) ?? "unknown",
        status: status && TOOL_STATUSES.has(status) ? status : "pending",
        input: state.input,
        output: string(state.output),
        error: string(state.error),
        title: string(state.title),
      };
    }
    case "file": {
      const source = object(part.source);
      return {
        kind: "file",
        id,
        mime: string(part.mime) ?? "application/octet-stream",
        filename: string(part.filename),
        // data: URLs can be megabytes of base64: keep only file references.
        url: string(part.url)?.startsWith("data:") ? undefined : string(part.url),
        path: string(source?.path),
      };
    }
    case "patch":
      return {
        kind: "patch",
        id,
        files: Array.isArray(part.files) ? part.files.filter((file): file is string => typeof file === "string") : [],
      };
    case "agent":
      return { kind: "agent", id, name: string(part.name) ?? "" };
    case "subtask":
      return {
        kind: "subtask",
        id,
        prompt: string(part.prompt) ?? "",
        description: string(part.description) ?? "",
        agent: string(part.agent) ?? "",
      };
    case "compaction":
      return { kind: "compaction", id, auto: part.auto === true, tailStartId: string(part.tail_start_id) };
    default:
      // step-start, step-finish, snapshot, retry and part types of newer hosts carry no history.
      return undefined;
  }
}

/** One `{info, parts}` entry; undefined when it has no usable id or role. */
export function mapMessage(raw: unknown, sessionIdFallback?: string): HistoryMessage | undefined {
  const entry = object(raw);
  const info = object(entry?.info);
  const id = string(info?.id);
  const role = info?.role;
  if (!info || !id || (role !== "user" && role !== "assistant")) return undefined;
  const time = object(info.time);
  const error = object(info.error);
  const rawParts = Array.isArray(entry?.parts) ? entry.parts : [];
  const parts: HistoryPart[] = [];
  for (const rawPart of rawParts) {
    const part = mapPart(rawPart);
    if (part) parts.push(part);
  }
  const continueMarker = rawParts.some((rawPart) => object(object(rawPart)?.metadata)?.compaction_continue === true);
  return {
    id,
    sessionId: string(info.sessionID) ?? sessionIdFallback ?? "",
    role,
    created: number(time?.created),
    completed: number(time?.completed),
    agent: string(info.agent),
    summary: role === "assistant" && info.summary === true ? true : undefined,
    error: error ? { name: string(error.name) ?? "Error", message: string(object(error.data)?.message) } : undefined,
    compactionContinue: role === "user" && continueMarker ? true : undefined,
    parts,
  };
}

export function mapSession(raw: unknown): SessionInfo | undefined {
  const session = object(raw);
  const id = string(session?.id);
  if (!session || !id) return undefined;
  const time = object(session.time);
  return {
    id,
    title: string(session.title) ?? "",
    parentId: string(session.parentID),
    agent: string(session.agent),
    directory: string(session.directory),
    created: number(time?.created),
    updated: number(time?.updated),
  };
}

/** OpenCode 1.x: SDK answers and store rows alike. */
export const V1_DECODE: HostDecode<unknown> = { message: mapMessage, session: mapSession };
