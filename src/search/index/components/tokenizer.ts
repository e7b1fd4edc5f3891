// Orama tokenizer component: our tokenizer (identifier humps, CJK bigrams) behind Orama's
// interface. Orama hands it to the index component on every insert and search. Beyond Orama's
// tokenize (one string per token), it gives the index token spans over the folded text (indexing
// then makes no string per token; docs/architecture.md has the cost) and parsed queries (terms
// grouped by query word, which coverage scoring needs).

import type { Tokenizer } from "@orama/orama";
import { fold } from "../../text/normalize.ts";
import { tokenize, tokenSpans, type TokenSpans } from "../../text/tokenize.ts";
import { type ParsedQuery, parseQuery } from "../../text/query.ts";

export class TermTokenizer implements Tokenizer {
  readonly language = "universal";
  readonly normalizationCache = new Map<string, string>();

  tokenize(raw: string): string[] {
    return tokenize(raw);
  }

  /** Fills `out` with the text's token spans; returns the folded text they index into. */
  spans(text: string, out: TokenSpans): string {
    tokenSpans(text, out);
    return fold(text);
  }

  /** The query's terms, grouped by query word. */
  parse(query: string): ParsedQuery {
    return parseQuery(query);
  }
}
