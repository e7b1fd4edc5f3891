// Orama index component over the packed postings (postings.ts) and the filterable attributes
// (attributes.ts). Orama calls insert once per schema property: the text (with the chunk's tool
// input) goes through the tokenizer component into the postings, the other properties into the
// attributes. Orama's search hands the component the query's text and the documents its where
// clause accepts (searchByWhereClause); the component scores them (score-docs.ts) and returns the
// documents of the best groups only (best-groups.ts).

import type { AnyIndexStore, IIndex, SearchableValue, Tokenizer } from "@orama/orama";
import { SEP, charClass } from "../../text/normalize.ts";
import { TokenSpans } from "../../text/tokenize.ts";
import { Attributes, type AttributeSchema } from "./attributes.ts";
import { bestGroups, type RankedDocs, type ResultGrouping } from "./best-groups.ts";
import { addDocument, addOccurrences, createPostingsStore, removeDocument, type PostingsStore } from "./postings.ts";
import { scoreDocs } from "./score-docs.ts";
import { TermTokenizer } from "./tokenizer.ts";
import { TUNING } from "../../tuning.ts";

/**
 * The searchable property: the chunk's text, then the part of it that is a tool call's input (a
 * prefix, when the chunk has one), whose terms, already counted with the text, count
 * inputWeight times in all (tuning.ts). Every other schema property is a filterable attribute.
 */
const TEXT_PROPERTY = "text";

export class PostingsIndexStore {
  /** Orama's search reads this (no vector properties here). */
  readonly vectorIndexes: Record<string, never> = {};
  readonly postings: PostingsStore = createPostingsStore();
  readonly attributes: Attributes;

  constructor(schema: AttributeSchema) {
    this.attributes = new Attributes(schema);
  }
}

type TokenScore = [number, number];

/**
 * A search of the store: the documents of the best `groups` groups holding a term of the query
 * that `where` accepts (all when absent), scored, best first. The tokenizer parses the query (a
 * corrected query's weights come with it: tokenizer.ts parsing).
 */
function searchStore(
  store: PostingsIndexStore,
  tokenizer: TermTokenizer,
  term: string,
  where: ReadonlySet<number> | undefined,
  grouping: ResultGrouping,
  groups: number,
): RankedDocs {
  const { scratch, n } = scoreDocs(store.postings, tokenizer.parse(term), where);
  return bestGroups(store.postings, scratch, n, store.attributes.codes(grouping.property), store.attributes.codeCount(grouping.property) + 1, grouping, groups);
}

// Orama types the store it hands search and searchByWhereClause loosely, and the tokenizer as
// its own interface: both are checked to be ours.
function storeOf(index: AnyIndexStore): PostingsIndexStore {
  if (!(index instanceof PostingsIndexStore)) throw new Error("not a postings index store");
  return index;
}

function tokenizerOf(tokenizer: Tokenizer): TermTokenizer {
  if (!(tokenizer instanceof TermTokenizer)) throw new Error("the postings index needs the TermTokenizer component");
  return tokenizer;
}

/** The text property's value: the chunk's text and, when it has one, its input. */
function textAndInput(value: SearchableValue): [string, string | undefined] {
  if (!Array.isArray(value) || typeof value[0] !== "string" || value.length > 2 || (value.length === 2 && typeof value[1] !== "string")) {
    throw new Error(`${TEXT_PROPERTY} must be [text] or [text, input]`);
  }
  return [value[0], value[1] as string | undefined];
}

/**
 * Whether a chunk's input (its leading part) has as its terms exactly the text's terms that start
 * within it: it is a prefix of the text that ends the text or is followed by a separator other
 * than a dot (a dot may join the numbers of a version), so no term runs across its end. A tool
 * call's signature is followed by a line break; its terms (a tenth of the dev sessions' text)
 * are then not folded and tokenized a second time.
 */
export function inputSpansInText(text: string, input: string): boolean {
  const end = input.length;
  if (end > text.length || !text.startsWith(input)) return false;
  if (end === text.length) return true;
  const code = text.charCodeAt(end);
  return code !== 0x2e && charClass(code) === SEP;
}

/**
 * The methods of Orama's index interface that Orama reaches for our use (create, insert, remove,
 * count, search with `where`; methods/insert.js, remove.js, search-fulltext.js): the score hooks
 * are only called by Orama's own index, load/save only by its serialization.
 */
export type ReachedIndex<I extends AnyIndexStore> = Pick<
  IIndex<I>,
  "create" | "insert" | "remove" | "search" | "searchByWhereClause" | "getSearchableProperties" | "getSearchablePropertiesWithTypes"
>;

/** The index component for a schema of `text` plus the given filterable attributes. */
export function createPostingsIndexComponent(attributes: AttributeSchema, grouping: ResultGrouping): ReachedIndex<PostingsIndexStore> {
  const properties = [TEXT_PROPERTY, ...Object.keys(attributes)];
  // To Orama an ordinal is an enum (of numbers).
  const attributeTypes = Object.fromEntries(Object.entries(attributes).map(([property, type]) => [property, type === "ordinal" ? ("enum" as const) : type]));
  const types = { [TEXT_PROPERTY]: "string[]" as const, ...attributeTypes };
  const spans = new TokenSpans();
  return {
    create: () => new PostingsIndexStore(attributes),
    insert(_impl, index, prop, _id, internalId, value: SearchableValue, _type, _language, tokenizer) {
      if (prop !== TEXT_PROPERTY) {
        index.attributes.set(prop, internalId, value);
        return;
      }
      const [text, input] = textAndInput(value);
      const terms = tokenizerOf(tokenizer);
      const folded = terms.spans(text, spans);
      addDocument(index.postings, internalId, folded, spans, text.length);
      if (input === undefined) return;
      if (inputSpansInText(text, input)) addOccurrences(index.postings, internalId, folded, spans, TUNING.inputWeight - 1, input.length);
      else addOccurrences(index.postings, internalId, terms.spans(input, spans), spans, TUNING.inputWeight - 1);
    },
    // Called once per property the stored document still has: marking dead is idempotent.
    remove(_impl, index, _prop, _id, internalId) {
      removeDocument(index.postings, internalId);
      return true;
    },
    search: (index, term, tokenizer, _language, _properties, _exact, _tolerance, _boost, _relevance, _docsCount, where) => {
      const { docs, scores } = searchStore(storeOf(index), tokenizerOf(tokenizer), term, where, grouping, grouping.groups());
      return Array.from(docs, (doc, i): TokenScore => [doc, scores[i]!]);
    },
    searchByWhereClause(index, _tokenizer, where) {
      const store = storeOf(index);
      return store.attributes.select(where, store.postings.docsEnd, store.postings.alive);
    },
    getSearchableProperties: () => properties,
    getSearchablePropertiesWithTypes: () => types,
  };
}
