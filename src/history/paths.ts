// Paths shown to the model: relative to the project when inside it, as stored otherwise.

export function relativePath(path: string, directory: string): string {
  let clean = path.startsWith("file://") ? decodeURIComponent(path.slice("file://".length)) : path;
  clean = clean.replace(/\\/g, "/");
  const root = directory.replace(/\\/g, "/").replace(/\/+$/, "");
  if (root && clean.startsWith(`${root}/`)) return clean.slice(root.length + 1);
  return clean;
}
