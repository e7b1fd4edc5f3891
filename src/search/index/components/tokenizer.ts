// Orama tokenizer component: our tokenizer (identifier humps, CJK bigrams) behind Orama's interface.

import type { Tokenizer } from "@orama/orama";
import { tokenize } from "../../text/tokenize.ts";

export function createTokenizerComponent(): Tokenizer {
  return {
    language: "universal",
    normalizationCache: new Map(),
    tokenize: (raw: string) => tokenize(raw),
  };
}
