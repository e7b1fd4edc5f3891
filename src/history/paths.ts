// Paths shown to the model: relative to the project when inside it, as stored otherwise.

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
