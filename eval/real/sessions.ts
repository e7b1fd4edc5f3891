// Loads the real sessions of ../shared/corpus/ (opencode export shape, gzipped) through the host
// adapter's own mapping, so the eval searches exactly what the plugin would see.

import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import type { HistoryMessage, SessionInfo } from "../../src/history/types.ts";
import { mapMessage, mapSession } from "../../src/store/map.ts";
import { SPLIT, type CorpusFolder } from "./split.ts";

/** `../shared/corpus/` beside the checkout (CI places `../shared/` there too). */
export const CORPUS_DIR = fileURLToPath(new URL("../../../shared/corpus/", import.meta.url));
export const DEV_CORPUS_DIR = join(CORPUS_DIR, "dev/");

export interface RealSession {
  /** File name without `.json.gz`, e.g. `mini-django-15629`: how the questions name a session. */
  name: string;
  /** The corpus folder it came from (its project in the eval is split.ts's projectOf, not the folder). */
  folder?: CorpusFolder;
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
function realSessionFiles(dir: string = DEV_CORPUS_DIR): string[] {
  if (!existsSync(dir))
    throw new Error(`the real-session corpus is not at ${dir}: the eval reads ../shared/corpus/dev/ beside the checkout, where CI places it`);
  return readdirSync(dir)
    .filter((file) => file.endsWith(".json.gz"))
    .sort()
    .map((file) => join(dir, file));
}

/** Every session of the folder, in file-name order. */
export function loadRealSessions(dir: string = DEV_CORPUS_DIR): RealSession[] {
  return realSessionFiles(dir).map(loadRealSession);
}

/** Every session of the eval's split (dev/, the drawn swebench/ ones and dev2/), in the split's order, each with its folder. */
export function loadEvalSessions(corpusDir: string = CORPUS_DIR): RealSession[] {
  if (!existsSync(corpusDir))
    throw new Error(`the real-session corpus is not at ${corpusDir}: the eval reads ../shared/corpus/ beside the checkout, where CI places it`);
  return SPLIT.map((s) => ({ ...loadRealSession(join(corpusDir, s.folder, `${s.name}.json.gz`)), folder: s.folder }));
}
