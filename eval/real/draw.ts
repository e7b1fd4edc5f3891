// How the swebench sessions of the real-session eval were drawn (issue 22): the eligible sessions
// of ../shared/corpus/swebench/ in file-name order, shuffled by a seeded generator (mulberry32),
// the first ones taken. Eligible: at least MIN_MESSAGES messages (enough to ask about), and not the
// same run as a session of another corpus folder (swebench/ also holds the dev runs and the
// holdout's runs, which must never be labelled). split.ts commits the outcome; the corpus test
// redraws it.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { seededRandom } from "../../src/util/testing/seeded-random.ts";
import { CORPUS_DIR } from "./sessions.ts";

/** Where each corpus file came from, and how many messages it holds. */
export const SOURCES_FILE = join(CORPUS_DIR, "sources.json");
/** The number: fixed before the draw, so no draw was chosen by what it gave. */
const DRAW_SEED = 22;
const MIN_MESSAGES = 30;

interface Source {
  file: string;
  path?: string;
  messages?: number;
}

/** The first `count` eligible swebench sessions in the seeded order, as names (file without folder and `.json.gz`). */
export function drawSwebenchSessions(count: number, sourcesFile: string = SOURCES_FILE): string[] {
  const sources = JSON.parse(readFileSync(sourcesFile, "utf8")) as Record<string, Source[]>;
  const elsewhere = new Set(
    Object.entries(sources)
      .filter(([folder]) => folder !== "swebench")
      .flatMap(([, entries]) => entries.map((e) => e.path).filter((p): p is string => p !== undefined)),
  );
  const eligible = (sources.swebench ?? [])
    .filter((e) => (e.messages ?? 0) >= MIN_MESSAGES && (e.path === undefined || !elsewhere.has(e.path)))
    .map((e) => e.file.replace(/^.*\//, "").replace(/\.json\.gz$/, ""))
    .sort();
  const random = seededRandom(DRAW_SEED);
  for (let i = eligible.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [eligible[i], eligible[j]] = [eligible[j]!, eligible[i]!];
  }
  return eligible.slice(0, count);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(drawSwebenchSessions(Number(process.argv[2] ?? 10)).join("\n"));
