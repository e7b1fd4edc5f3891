import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { stemmer } from "@orama/stemmers/english";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { realSessionFiles } from "../testing/eval/real/sessions.ts";
import { porterStem } from "./porter.ts";

/** Endings Porter's steps test, and the forms stem.ts builds: added to words to reach every step. */
const ENDINGS = [
  "s", "es", "sses", "ies", "ed", "eed", "ing", "y", "ly", "e", "ion", "ions", "sion", "tion", "ational", "tional", "enci", "anci",
  "izer", "bli", "alli", "entli", "eli", "ousli", "ization", "ation", "ator", "alism", "iveness", "fulness", "ousness", "aliti",
  "iviti", "biliti", "logi", "icate", "ative", "alize", "iciti", "ical", "ful", "ness", "al", "ance", "ence", "er", "ic", "able",
  "ible", "ant", "ement", "ment", "ent", "ou", "ism", "ate", "iti", "ous", "ive", "ize", "ll", "ification", "ify", "ified",
];

/** Every lower-case a–z word of the dev corpus (its JSON text lower-cased). */
function corpusWords(): string[] {
  const words = new Set<string>();
  for (const file of realSessionFiles()) {
    const text = gunzipSync(readFileSync(file)).toString("utf8").toLowerCase();
    for (const word of text.match(/[a-z]+/g) ?? []) if (word.length <= 30) words.add(word);
  }
  return [...words];
}

function differences(words: Iterable<string>): string[] {
  const wrong: string[] = [];
  for (const word of words) if (porterStem(word) !== stemmer(word)) wrong.push(`${word}: ${porterStem(word)} ≠ ${stemmer(word)}`);
  return wrong;
}

describe("porterStem", () => {
  it("stems as @orama/stemmers does every word of the real sessions, and each with every ending", () => {
    const words = corpusWords();
    expect(words.length).toBeGreaterThan(10_000);
    expect(differences(words)).toEqual([]);
    const stems = new Set(words.filter((word) => word.length <= 12).map((word) => stemmer(word)));
    const forms = [...stems].flatMap((stem) => ENDINGS.map((ending) => stem + ending));
    expect(differences(forms)).toEqual([]);
  });

  it("stems as @orama/stemmers does any string of vowels, y, doubled and plain consonants, and endings", () => {
    const letter = fc.constantFrom(..."aeiouyysstllbbzzwxcdhnrp");
    const word = fc.tuple(fc.array(letter, { minLength: 0, maxLength: 9 }), fc.constantFrom("", ...ENDINGS)).map(([letters, ending]) => letters.join("") + ending);
    fc.assert(
      fc.property(word, (w) => porterStem(w) === stemmer(w)),
      { numRuns: 20_000 },
    );
  });

  it("keeps the reference's quirks: -sion/-tion go with the s or t, and a failed longest ending is not retried", () => {
    expect(porterStem("adoption")).toBe("adop");
    expect(porterStem("rational")).toBe("ration");
    expect(porterStem("yelled")).toBe("yell");
    expect(porterStem("hopping")).toBe("hop");
    expect(porterStem("hoped")).toBe("hope");
  });
});
