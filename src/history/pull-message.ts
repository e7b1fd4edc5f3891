// history_pull_message: one message in full detail, section by section, within one answer's size.

import { visibleIndex, type SessionView } from "./view.ts";
import { fileLabel } from "./attachments.ts";
import { byteLength, isoTime, toJson } from "./compact.ts";
import { MAX_ANSWER_BYTES } from "./limits.ts";
import { toolResultText } from "./tool-text.ts";
import type { ToolVisibility } from "./tool-visibility.ts";
import { cutWithMarker } from "./text.ts";
import type { HistoryMessage, HistoryPart } from "./types.ts";

export type Section = Record<string, unknown> & { type: string };

export interface PullMessageResult {
  message_id: string;
  role: "user" | "assistant";
  turn_number: number;
  time?: string;
  agent?: string;
  summary?: boolean;
  error?: string;
  sections: Section[];
  note?: string;
}

export interface PullOptions {
  sectionChars: number;
  visibility: ToolVisibility;
  directory: string;
}

/** Content cut to `max`, with the part id attached when something was left out. */
function withContent(section: Section, partId: string, key: string, text: string, max: number): Section {
  const cut = cutWithMarker(text, max);
  section[key] = cut.text;
  if (cut.more > 0) section.part_id = partId;
  return section;
}

function toolInput(input: unknown, partId: string, max: number, section: Section): void {
  const json = JSON.stringify(input ?? {}) ?? "{}";
  if (json.length <= max) {
    section.input = input;
    return;
  }
  section.input = cutWithMarker(json, max).text;
  section.part_id = partId;
}

function sectionOf(part: HistoryPart, max: number, options: PullOptions): Section | undefined {
  switch (part.kind) {
    case "text":
      if (part.ignored) return undefined;
      return withContent({ type: "text", synthetic: part.synthetic || undefined }, part.id, "content", part.text, max);
    case "reasoning":
      return withContent({ type: "reasoning" }, part.id, "content", part.text, max);
    case "tool": {
      const section: Section = { type: "tool", tool: part.tool, status: part.status };
      if (options.visibility.input(part.tool)) toolInput(part.input, part.id, max, section);
      const result = options.visibility.output(part.tool) ? toolResultText(part) : undefined;
      if (result) withContent(section, part.id, "content", result, max);
      return section;
    }
    case "file":
      return part.mime.startsWith("image/")
        ? { type: "image", mime: part.mime, name: part.filename }
        : { type: "file", path: fileLabel(part, options.directory), mime: part.mime };
    case "patch":
      return { type: "patch", files: part.files.map((file) => fileLabel({ kind: "file", id: part.id, mime: "", path: file }, options.directory)) };
    case "subtask":
      return withContent({ type: "subtask", agent: part.agent, description: part.description }, part.id, "prompt", part.prompt, max);
    case "agent":
      return { type: "agent", name: part.name };
    case "compaction":
      return { type: "compaction", auto: part.auto };
    default:
      return undefined;
  }
}

interface Built {
  result: PullMessageResult;
  /** Part id of each section, for naming the ones left out. */
  partIds: string[];
}

function build(view: SessionView, index: number, message: HistoryMessage, max: number, options: PullOptions): Built {
  const sections: Section[] = [];
  const partIds: string[] = [];
  for (const part of message.parts) {
    const section = sectionOf(part, max, options);
    if (!section) continue;
    sections.push(section);
    partIds.push(part.id);
  }
  const result: PullMessageResult = {
    message_id: message.id,
    role: message.role,
    turn_number: view.turnNumbers[index]!,
    time: isoTime(message.created),
    agent: message.role === "assistant" ? message.agent : undefined,
    summary: message.summary || undefined,
    // Provider errors can carry a whole HTML page: cut like a section.
    error: message.error ? cutWithMarker([message.error.name, message.error.message].filter(Boolean).join(": "), max).text : undefined,
    sections,
  };
  return { result, partIds };
}

export function pullMessage(view: SessionView, messageId: string, options: PullOptions): PullMessageResult {
  const index = visibleIndex(view, messageId);
  const message = view.messages[index]!;
  // Many long parts would overflow one answer: halve the per-section room until it fits.
  for (let max = options.sectionChars; ; max = Math.floor(max / 2)) {
    const built = build(view, index, message, max, options);
    if (byteLength(toJson(built.result)) <= MAX_ANSWER_BYTES) return built.result;
    if (max <= 64) return keepWhatFits(built);
  }
}

/** Last resort for messages with hundreds of parts: drop trailing sections, name their part ids. */
function keepWhatFits({ result, partIds }: Built): PullMessageResult {
  const trial = (keep: number): PullMessageResult => {
    const omitted = partIds.slice(keep);
    const listed = omitted.slice(0, 40).join(", ") + (omitted.length > 40 ? ", …" : "");
    return {
      ...result,
      sections: result.sections.slice(0, keep),
      note: `${omitted.length} more sections not shown; read them with history_pull_part (part ids: ${listed})`,
    };
  };
  // Estimate from the sections' sizes (measuring every trial whole is quadratic in the parts),
  // then confirm with the real size.
  let room = MAX_ANSWER_BYTES - byteLength(toJson(trial(0)));
  let keep = 0;
  for (const section of result.sections.slice(0, -1)) {
    const size = byteLength(toJson(section)) + 1;
    if (size > room) break;
    room -= size;
    keep++;
  }
  for (; keep >= 0; keep--) {
    const candidate = trial(keep);
    if (byteLength(toJson(candidate)) <= MAX_ANSWER_BYTES) return candidate;
  }
  const bare = { ...result, sections: [], note: "sections too large to show; read them with history_pull_part" };
  if (byteLength(toJson(bare)) <= MAX_ANSWER_BYTES) return bare;
  // Only a header field the host filled (an agent name, say) can be this large.
  return { message_id: result.message_id, role: result.role, turn_number: result.turn_number, sections: [], note: "message too large to show" };
}
