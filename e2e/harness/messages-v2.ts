// OpenCode 2's wire messages (`GET /api/session/:id/message`: `{id, type, time, …data}`) in the 1.x
// shape the tests read (`{info, parts}`, tool parts with `state.output` as text). Part ids are the
// ones the plugin gives the same content (store/v2/map.ts), so a stored part can be pulled by id.
// A completed compaction is one assistant message marked `summary` holding a `compaction` part
// (`auto`, `tail_start_id` = the host's `metadata.keepID`) and the summary text.
import { partId } from "../../src/store/v2/map.ts";
import type { HostMessage, HostPart, HostSession, HostToolState } from "./types.ts";

type Json = Record<string, unknown>;

function object(value: unknown): Json | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;
}

function array(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Tool content as the text the model read. */
function contentText(content: unknown): string | undefined {
  const texts = array(content)
    .map(object)
    .filter((item) => item?.type === "text" && typeof item.text === "string")
    .map((item) => item!.text as string);
  return texts.length > 0 ? texts.join("\n") : undefined;
}

const STATUS: Record<string, HostToolState["status"]> = {
  streaming: "pending",
  pending: "pending",
  running: "running",
  completed: "completed",
  error: "error",
};

function toolState(raw: Json): HostToolState {
  const state = object(raw.state) ?? {};
  const status = STATUS[String(state.status)] ?? "pending";
  const error = object(state.error);
  return {
    status,
    input: state.input,
    output: status === "completed" ? (contentText(state.content) ?? "") : undefined,
    error: status === "error" ? String(error?.message ?? state.error ?? "error") : undefined,
    metadata: object(state.metadata),
  };
}

function assistantParts(sessionID: string, messageID: string, data: Json): HostPart[] {
  const base = { sessionID, messageID };
  return array(data.content).flatMap((raw, index): HostPart[] => {
    const part = object(raw);
    const id = partId(messageID, String(index));
    if (part?.type === "text" || part?.type === "reasoning") return [{ ...base, id, type: part.type, text: part.text }];
    if (part?.type === "tool") return [{ ...base, id, type: "tool", callID: part.id, tool: part.name, state: toolState(part) }];
    return [];
  });
}

function userParts(sessionID: string, messageID: string, data: Json): HostPart[] {
  const base = { sessionID, messageID };
  const files = array(data.files).map((raw, index) => {
    const file = object(raw) ?? {};
    return { ...base, id: partId(messageID, `file${index}`), type: "file", url: file.uri, filename: file.name, mime: file.mime };
  });
  return [{ ...base, id: partId(messageID, "text"), type: "text", text: data.text }, ...files];
}

export function mapV2Message(raw: unknown, sessionID: string): HostMessage | undefined {
  const data = object(raw);
  const id = typeof data?.id === "string" ? data.id : undefined;
  if (!data || !id) return undefined;
  const time = object(data.time) ?? {};
  const info = { id, sessionID, time: { created: Number(time.created ?? 0), completed: time.completed as number | undefined } };
  switch (data.type) {
    case "user":
      return { info: { ...info, role: "user" }, parts: userParts(sessionID, id, data) };
    case "assistant": {
      const error = object(data.error);
      return {
        info: {
          ...info,
          role: "assistant",
          agent: data.agent as string | undefined,
          finish: data.finish as string | undefined,
          ...(error ? { error: { name: String(error.type ?? error.name ?? "Error"), data: error } } : {}),
        },
        parts: assistantParts(sessionID, id, data),
      };
    }
    case "compaction": {
      if (data.status !== "completed") return undefined;
      const base = { sessionID, messageID: id };
      const compaction = {
        ...base,
        id: partId(id, "compaction"),
        type: "compaction",
        auto: data.reason === "auto",
        tail_start_id: object(data.metadata)?.keepID,
      };
      return {
        info: { ...info, role: "assistant", agent: "compaction", summary: true },
        parts: [compaction, { ...base, id: partId(id, "summary"), type: "text", text: data.summary }],
      };
    }
    default:
      return undefined;
  }
}

export function mapV2Session(raw: unknown): HostSession {
  const data = object(raw) ?? {};
  return {
    ...data,
    id: String(data.id),
    title: String(data.title ?? ""),
    ...(typeof data.parentID === "string" ? { parentID: data.parentID } : {}),
    directory: object(data.location)?.directory as string | undefined,
  };
}
