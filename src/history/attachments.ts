// What a user message carried besides its words: files by path, images by count; and paths as
// the model is shown them: relative to the project when inside it, as stored otherwise.

import type { FilePart, HistoryMessage } from "./types.ts";

/** A file URL's path, decoded; kept as stored when its percent-escapes are malformed. */
function fileUrlPath(url: string): string {
  const encoded = url.slice("file://".length);
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

export function relativePath(path: string, directory: string): string {
  let clean = path.startsWith("file://") ? fileUrlPath(path) : path;
  clean = clean.replace(/\\/g, "/");
  const root = directory.replace(/\\/g, "/").replace(/\/+$/, "");
  if (root && clean.startsWith(`${root}/`)) return clean.slice(root.length + 1);
  return clean;
}

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
