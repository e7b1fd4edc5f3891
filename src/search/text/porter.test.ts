import { stemmer } from "@orama/stemmers/english";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { porterStem } from "./porter.ts";
import { ENDINGS } from "./testing/porter-reference.ts";

// The same comparison over every word of the real sessions is porter.corpus.test.ts (corpus project).
describe("porterStem", () => {
  it("stems as @orama/stemmers does any string of vowels, y, doubled and plain consonants, and endings", () => {
    const letter = fc.constantFrom(..."aeiouyysstllbbzzwxcdhnrp");
    const word = fc
      .tuple(fc.array(letter, { minLength: 0, maxLength: 9 }), fc.constantFrom("", ...ENDINGS))
      .map(([letters, ending]) => letters.join("") + ending);
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
