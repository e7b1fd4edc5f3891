// The blind alternatives of the eval's questions (issue 51): up to three more phrasings per
// question, written once from the question text alone, kept verbatim in alternatives.jsonl and
// never edited after any rank was seen. How they were written (alternatives-how.md, the writer's
// own note):
//
// - Author: a language-model helper that was given only the question list (363 lines), on
//   2026-12-07.
// - Instructions: for each question, write 1-3 short search queries (at most 200 characters each)
//   in the words the past coding-session history would most likely contain: literal error text,
//   commands that were run, identifiers, file names and paths, and the technical terms a developer
//   would use. Not rewordings of the question, not the question verbatim, no guessing of hidden
//   facts beyond what a competent developer would infer.
// - They stay in the question's language unless the history would plausibly hold another one
//   (English error messages or commands for German, Chinese or Portuguese questions). Typos in the
//   questions were corrected in the alternatives.
// - No session text, corpus, repository, labels or rankings were seen; no search or web tools;
//   no file other than the question list was read.

import { readFileSync } from "node:fs";

/** How a question is asked: its query alone, with its alternatives fused, or with them appended to the query. */
export type Phrasing = "query" | "fused" | "appended";
export const PHRASINGS: readonly Phrasing[] = ["query", "fused", "appended"];

let byQuery: Map<string, string[]> | undefined;

/** The alternatives written for a question, by its exact query text (none for a question not in the list). */
export function alternativesOf(query: string): string[] {
  if (!byQuery) {
    byQuery = new Map();
    const lines = readFileSync(new URL("./alternatives.jsonl", import.meta.url), "utf8").split("\n");
    for (const line of lines) {
      if (line.trim() === "") continue;
      const { query: text, alternatives } = JSON.parse(line) as { query: string; alternatives: string[] };
      byQuery.set(text, alternatives);
    }
  }
  return byQuery.get(query) ?? [];
}
