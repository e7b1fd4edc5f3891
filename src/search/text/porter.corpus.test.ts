import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { stemmer } from "@orama/stemmers/english";
import { describe, expect, it } from "vitest";
import { realSessionFiles } from "../testing/eval/real/sessions.ts";
import { ENDINGS, stemDifferences } from "./testing/porter-reference.ts";

/** Every lower-case a–z word of the dev corpus (its JSON text lower-cased). */
function corpusWords(): string[] {
  const words = new Set<string>();
  for (const file of realSessionFiles()) {
    const text = gunzipSync(readFileSync(file)).toString("utf8").toLowerCase();
    for (const word of text.match(/[a-z]+/g) ?? []) if (word.length <= 30) words.add(word);
  }
  return [...words];
}

describe("porterStem on the real sessions", () => {
  it("stems as @orama/stemmers does every word of the real sessions, and each with every ending", () => {
    const words = corpusWords();
    expect(words.length).toBeGreaterThan(10_000);
    expect(stemDifferences(words)).toEqual([]);
    const stems = new Set(words.filter((word) => word.length <= 12).map((word) => stemmer(word)));
    const forms = [...stems].flatMap((stem) => ENDINGS.map((ending) => stem + ending));
    expect(stemDifferences(forms)).toEqual([]);
  });
});
