// Orama tokenizer component: our tokenizer (identifier humps, CJK bigrams) behind Orama's
// interface. Orama hands it to the index component on every insert and search. Beyond Orama's
// tokenize (one string per token), it gives the index token spans over the folded text (indexing
// then makes no string per token; docs/architecture.md has the cost) and parsed queries (terms
// grouped by query word, which coverage scoring needs): the index component parses the term
// Orama's search hands it.

import type { Tokenizer } from "@orama/orama";
import { fold } from "../../text/normalize.ts";
import { tokenize, tokenSpans, type TokenSpans } from "../../text/tokenize.ts";
import { type ParsedQuery, parseQuery } from "../../text/query.ts";

/** A query's text with the terms a search reads for it. */
export interface SearchQuery {
  text: string;
  parsed: ParsedQuery;
}

export class TermTokenizer implements Tokenizer {
  readonly language = "universal";
  readonly normalizationCache = new Map<string, string>();
  /** The query of the search under way, parsed by its owner (see parsing). */
  private given: SearchQuery | undefined;

  tokenize(raw: string): string[] {
    return tokenize(raw);
  }

  /** Fills `out` with the text's token spans; returns the folded text they index into. */
  spans(text: string, out: TokenSpans): string {
    tokenSpans(text, out);
    return fold(text);
  }

  /** The query's terms, grouped by query word: the given query's own when `query` is its text. */
  parse(query: string): ParsedQuery {
    const given = this.given;
    return given !== undefined && given.text === query ? given.parsed : parseQuery(query);
  }

  /**
   * Runs one synchronous search with `query.parsed` as the parse of `query.text`: a query with
   * its typos corrected weighs the corrections less than its text says (text/typos.ts), and
   * Orama's search carries the text only.
   */
  parsing<T>(query: SearchQuery, search: () => T): T {
    this.given = query;
    try {
      return search();
    } finally {
      this.given = undefined;
    }
  }
}
