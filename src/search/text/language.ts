// Which language a query is written in, for its function words (function-words.ts): English,
// German or Portuguese, told by counting the query's
// function words that only one of them has (`der`, `für`, `welche`; `como`, `os`, `para`; `the`,
// `did`, `which`). The language with the most such words wins; a tie, or none, is English. A
// query names code and paths in English whatever language it is written in, so a German or
// Portuguese query keeps English's function words too. Only the query is told apart: the index
// and the cold scan store text as written, in any language, and look up the query's forms as
// ordinary terms, so they agree by construction.

import { DE_FUNCTION_WORDS, EN_FUNCTION_WORDS, PT_FUNCTION_WORDS } from "./function-words.ts";

export type Language = "en" | "de" | "pt";

const LANGUAGES: ReadonlyArray<readonly [Language, ReadonlySet<string>]> = [
  ["en", EN_FUNCTION_WORDS],
  ["de", DE_FUNCTION_WORDS],
  ["pt", PT_FUNCTION_WORDS],
];

/** Per language, its function words no other language of LANGUAGES shares (`die`, `was`, `do` tell nothing). */
const TELLING: ReadonlyMap<Language, ReadonlySet<string>> = new Map(
  LANGUAGES.map(([language, words]) => [
    language,
    new Set([...words].filter((word) => LANGUAGES.every(([other, otherWords]) => other === language || !otherWords.has(word)))),
  ]),
);

const WORD = /[\p{L}\p{M}]+/gu;

/** The language of a folded query (lower case, accents removed): the one with the most telling function words; English on a tie. */
export function queryLanguage(folded: string): Language {
  const counts = new Map<Language, number>();
  for (const [word] of folded.matchAll(WORD)) {
    for (const [language, telling] of TELLING) if (telling.has(word)) counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  let best: Language = "en";
  let bestCount = counts.get("en") ?? 0;
  for (const [language, count] of counts) if (count > bestCount) [best, bestCount] = [language, count];
  return best;
}
