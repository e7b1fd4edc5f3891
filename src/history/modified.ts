// Files a stretch of history changed: completed write-type tool calls and the host's patch parts.

import { relativePath } from "./attachments.ts";
import { inputString } from "./tool-text.ts";
import type { HistoryMessage, ToolPart } from "./types.ts";

/** Tools whose input names the one file they write. */
const FILE_PATH_TOOLS = new Set(["write", "edit", "multiedit"]);
/** Tools whose input carries patch text naming the files it touches. */
const PATCH_TOOLS = new Set(["apply_patch", "patch"]);

const PATCH_HEADER = /^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$|^\+\+\+ (?:b\/)?(.+?)(?:\t.*)?$/gm;

/** Paths named by an apply_patch envelope or a unified diff. */
export function pathsInPatch(patch: string): string[] {
  const out: string[] = [];
  for (const match of patch.matchAll(PATCH_HEADER)) {
    const path = (match[1] ?? match[2] ?? match[3])?.trim();
    if (path && path !== "/dev/null") out.push(path);
  }
  return out;
}

function pathsOfCall(part: ToolPart): string[] {
  if (part.status !== "completed") return [];
  if (FILE_PATH_TOOLS.has(part.tool)) {
    const path = inputString(part.input, "filePath", "file_path", "path");
    return path ? [path] : [];
  }
  if (PATCH_TOOLS.has(part.tool)) {
    const patch = inputString(part.input, "patchText", "patch_text", "patch", "input");
    return patch ? pathsInPatch(patch) : [];
  }
  return [];
}

export function modifiedFiles(messages: readonly HistoryMessage[], directory: string): string[] {
  const seen = new Set<string>();
  for (const message of messages) {
    for (const part of message.parts) {
      const paths = part.kind === "tool" ? pathsOfCall(part) : part.kind === "patch" ? part.files : [];
      for (const path of paths) seen.add(relativePath(path, directory));
    }
  }
  return [...seen];
}
