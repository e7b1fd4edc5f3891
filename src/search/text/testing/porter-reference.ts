// What the Porter stemmer's tests compare against @orama/stemmers with: the endings that reach
// every step, and the words on which the two stemmers disagree.

import { stemmer } from "@orama/stemmers/english";
import { porterStem } from "../porter.ts";

/** Endings Porter's steps test, and the forms stem.ts builds: added to words to reach every step. */
export const ENDINGS = [
  "s",
  "es",
  "sses",
  "ies",
  "ed",
  "eed",
  "ing",
  "y",
  "ly",
  "e",
  "ion",
  "ions",
  "sion",
  "tion",
  "ational",
  "tional",
  "enci",
  "anci",
  "izer",
  "bli",
  "alli",
  "entli",
  "eli",
  "ousli",
  "ization",
  "ation",
  "ator",
  "alism",
  "iveness",
  "fulness",
  "ousness",
  "aliti",
  "iviti",
  "biliti",
  "logi",
  "icate",
  "ative",
  "alize",
  "iciti",
  "ical",
  "ful",
  "ness",
  "al",
  "ance",
  "ence",
  "er",
  "ic",
  "able",
  "ible",
  "ant",
  "ement",
  "ment",
  "ent",
  "ou",
  "ism",
  "ate",
  "iti",
  "ous",
  "ive",
  "ize",
  "ll",
  "ification",
  "ify",
  "ified",
];

/** Each word porterStem stems otherwise than the reference, as `word: ours ≠ theirs`. */
export function stemDifferences(words: Iterable<string>): string[] {
  const wrong: string[] = [];
  for (const word of words) if (porterStem(word) !== stemmer(word)) wrong.push(`${word}: ${porterStem(word)} ≠ ${stemmer(word)}`);
  return wrong;
}
