// What a user message carried besides its words: files by path, images by count.

import { relativePath } from "./paths.ts";
import type { FilePart, HistoryMessage } from "./types.ts";

export function fileLabel(part: FilePart, directory: string): string {
  if (part.path) return relativePath(part.path, directory);
  if (part.url?.startsWith("file://")) return relativePath(part.url, directory);
  return part.filename ?? part.mime;
}

export function attachments(message: HistoryMessage, directory: string): string[] | undefined {
  let images = 0;
  const files: string[] = [];
  for (const part of message.parts) {
    if (part.kind !== "file") continue;
    if (part.mime.startsWith("image/")) images++;
    else files.push(fileLabel(part, directory));
  }
  const out = images > 0 ? [images === 1 ? "1 image" : `${images} images`, ...files] : files;
  return out.length > 0 ? out : undefined;
}
