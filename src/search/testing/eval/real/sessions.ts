// Loads the real sessions of ../shared/corpus/dev (opencode export shape, gzipped) through the
// host adapter's own mapping, so the eval searches exactly what the plugin would see.

import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import type { HistoryMessage, SessionInfo } from "../../../../history/types.ts";
import { mapMessage, mapSession } from "../../../../host/map.ts";

/** `../shared/corpus/dev` beside the checkout (CI places `../shared/` there too). */
export const DEV_CORPUS_DIR = fileURLToPath(new URL("../../../../../../shared/corpus/dev/", import.meta.url));

export interface RealSession {
  /** File name without `.json.gz`, e.g. `mini-django-15629`: how the questions name a session. */
  name: string;
  info: SessionInfo;
  messages: HistoryMessage[];
}

export function loadRealSession(file: string): RealSession {
  const document = JSON.parse(gunzipSync(readFileSync(file)).toString("utf8")) as { info?: unknown; messages?: unknown };
  const info = mapSession(document.info);
  if (!info) throw new Error(`${file}: no session info`);
  const raw = Array.isArray(document.messages) ? document.messages : [];
  const messages = raw.map((entry) => mapMessage(entry, info.id)).filter((m): m is HistoryMessage => m !== undefined);
  const name = file.replace(/^.*[\\/]/, "").replace(/\.json\.gz$/, "");
  return { name, info, messages };
}

/** The folder's session files (paths), in file-name order; a missing folder is an error saying where it was looked for. */
export function realSessionFiles(dir: string = DEV_CORPUS_DIR): string[] {
  if (!existsSync(dir)) throw new Error(`the real-session corpus is not at ${dir}: the eval reads ../shared/corpus/dev/ beside the checkout, where CI places it`);
  return readdirSync(dir)
    .filter((file) => file.endsWith(".json.gz"))
    .sort()
    .map((file) => join(dir, file));
}

/** Every session of the folder, in file-name order. */
export function loadRealSessions(dir: string = DEV_CORPUS_DIR): RealSession[] {
  return realSessionFiles(dir).map(loadRealSession);
}
