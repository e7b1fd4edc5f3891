// Small text helpers for human-readable output.

/** "2026-11-30 12:32" from an ISO time (UTC), or "" when there is none. */
export function shortTime(iso: string | undefined): string {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : "";
}

/** "3.4 MB", or "12 KB" below a megabyte. */
export function size(bytes: number): string {
  return bytes >= 1_048_576 ? `${(bytes / 1_048_576).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/** Text indented by `pad` on every line. */
export function indent(text: string, pad: string): string {
  return text
    .split("\n")
    .map((line) => pad + line)
    .join("\n");
}
