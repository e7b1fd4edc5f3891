// A SQLite store's size on disk: the database file with its write-ahead log.

import { statSync } from "node:fs";

export function fileBytes(path: string): number {
  let bytes = 0;
  for (const file of [path, `${path}-wal`]) {
    try {
      bytes += statSync(file).size;
    } catch {
      // no WAL file
    }
  }
  return bytes;
}
