// One session's Orama index: documents per part chunk, tracked per message by object identity so
// an update touches only new, changed and removed messages. Orama inserts, removes and searches
// through our components (tokenizer, packed postings, metadata-only store); a search's filters
// and the view's hidden messages travel as Orama's `where` clause.

import {
  count,
  create,
  insert,
  remove,
  search,
  type AnyDocument,
  type IDocumentsStore,
  type IIndex,
  type Orama,
  type Results,
  type SearchParamsFullText,
} from "@orama/orama";
import type { HistoryMessage } from "../../history/types.ts";
import type { ToolVisibility } from "../../history/tool-visibility.ts";
import type { SessionView } from "../../history/view.ts";
import type { SearchFilters } from "../types.ts";
import { HIT_TYPES, messageDocs, type HitType } from "../text/documents.ts";
import { flatDocumentProperties, flatSchemaValidator } from "./components/flat-document.ts";
import { createMetaStoreComponent, type ChunkDocument, type DocMeta, type MetaStore } from "./components/meta-store.ts";
import type { ResultGrouping } from "./components/best-groups.ts";
import { createPostingsIndexComponent, type PostingsIndexStore } from "./components/postings-index.ts";
import { collectionStats, liveDocFrequency } from "./components/score-docs.ts";
import { postingsBytes, trimSteps } from "./components/postings.ts";
import type { Vocabulary } from "../text/typos.ts";
import { TermTokenizer, type SearchQuery } from "./components/tokenizer.ts";
import type { CollectionStats } from "../rank/bm25.ts";
import type { ParsedQuery } from "../text/query.ts";
import { grown } from "../../util/grow.ts";

/**
 * What a search filters documents on, besides the text. Per message filters (role, time, the
 * view's hidden messages) become a set of excluded messages: every property costs Orama's insert
 * a pass per document. A document's message is its MessageEntry slot, an ordinal (to Orama an enum).
 */
const ATTRIBUTES = { message: "ordinal", type: "enum", tool: "enum" } as const;
const SCHEMA = { text: "string[]", message: "enum", type: "enum", tool: "enum" } as const;
const TEXT_PROPERTY = "text" as const;

type ChunkDb = Orama<typeof SCHEMA, IIndex<PostingsIndexStore>, IDocumentsStore<MetaStore>>;
/** The where clause a search hands Orama: a condition per attribute, all of which must hold. */
interface Where {
  type?: { in: HitType[] };
  tool?: { eq: string };
  message?: { nin: number[] };
}

/**
 * Heap per document and per message beyond the typed arrays (meta object, Orama's id and its id
 * maps; the message's entry); fitted to the bench's measured heap (2,000 and 10,000 messages,
 * Node and Bun).
 */
const DOC_OVERHEAD_BYTES = 220;
const MESSAGE_OVERHEAD_BYTES = 100;

/** How a session's index is made: what of a message is searchable, and which messages a search returns. */
export interface IndexSetup {
  visibility: ToolVisibility;
  /** A search returns the documents of this many best messages, scored so (ranking's policy). */
  messages: Pick<ResultGrouping, "groups" | "score" | "partScore" | "counted">;
}

/** A message the index holds, as it was indexed. */
interface MessageEntry {
  message: HistoryMessage;
  /** Numbers this indexing of the message (a changed message gets a new one): its documents' `message` attribute. */
  slot: number;
  /** How many documents it has; their Orama ids are docId(slot, 0…docs-1). */
  docs: number;
}

/** A document's Orama id: from its message's slot and its place among the message's documents, so no list of ids is kept. */
function docId(slot: number, k: number): string {
  return `${slot}.${k}`;
}

export interface IndexHit {
  meta: DocMeta;
  message: HistoryMessage;
  score: number;
}

export interface MessageDiff {
  added: HistoryMessage[];
  removed: string[];
}

export class SessionIndex {
  private readonly db: ChunkDb;
  private readonly messages = new Map<string, MessageEntry>();
  /** The message list the index matched at the last diff that found nothing to do. */
  private inStep: readonly HistoryMessage[] = [];
  /** Documents and messages ever inserted (their ids stay in Orama's id maps). */
  private docsInserted = 0;
  /**
   * By internal document id, a number naming the document's part (ranking counts a part by its
   * best chunk). Kept here, not as an Orama property: one more property costs every insert a pass.
   */
  private partOfDoc = new Int32Array(256);
  private partsInserted = 0;
  private messagesInserted = 0;
  /** The most documents any message indexed has had (a bound on a search's hits per message). */
  private mostDocs = 0;

  private readonly visibility: ToolVisibility;
  private readonly grouping: ResultGrouping;
  private readonly tokenizer = new TermTokenizer();
  /** How many best messages the search under way returns (the index component asks the grouping). */
  private groups: number | undefined;
  private readonly setupGroups: () => number;

  constructor(setup: IndexSetup) {
    this.visibility = setup.visibility;
    const { groups, ...messages } = setup.messages;
    this.setupGroups = groups;
    this.grouping = { property: "message", parts: () => this.partOfDoc, groups: () => this.groups ?? groups(), ...messages };
    this.db = create({
      schema: SCHEMA,
      sort: { enabled: false },
      // Orama's types ask for every method of its interfaces; ours have those Orama reaches for
      // the calls made here (ReachedIndex, ReachedDocumentsStore).
      components: {
        tokenizer: this.tokenizer,
        index: createPostingsIndexComponent(ATTRIBUTES, this.grouping) as IIndex<PostingsIndexStore>,
        documentsStore: createMetaStoreComponent() as IDocumentsStore<MetaStore>,
        validateSchema: flatSchemaValidator(SCHEMA),
        // Orama's type for this component omits array values, which its own default returns
        // (utils.d.ts) and its insert takes for a string[] property.
        getDocumentProperties: flatDocumentProperties as (doc: AnyDocument, paths: string[]) => Record<string, string | number | boolean>,
      },
    });
  }

  /** Messages to add (new or changed object) and ids to drop, against `current`. */
  diff(current: readonly HistoryMessage[]): MessageDiff {
    // Fast path: the list the index last matched, in the same order, maybe with new messages at
    // the end (the usual case: nothing changed, or a turn was appended). Pointer compares only.
    // Valid because the index only grew since `inStep` matched it (removals reset `inStep`).
    const previous = this.inStep;
    if (current.length >= previous.length) {
      let same = true;
      for (let i = 0; i < previous.length; i++) {
        if (current[i] !== previous[i]) {
          same = false;
          break;
        }
      }
      if (same) {
        const added: HistoryMessage[] = [];
        let held = previous.length;
        for (let i = previous.length; i < current.length; i++) {
          if (this.has(current[i]!)) held++;
          else added.push(current[i]!);
        }
        if (held === this.messages.size) {
          if (added.length === 0 && current.length !== previous.length) this.inStep = current.slice();
          return { added, removed: [] };
        }
      }
    }
    const added: HistoryMessage[] = [];
    const seen = new Set<string>();
    for (const message of current) {
      seen.add(message.id);
      if (this.messages.get(message.id)?.message !== message) added.push(message);
    }
    const removed: string[] = [];
    if (seen.size !== this.messages.size || added.length > 0) {
      for (const id of this.messages.keys()) if (!seen.has(id)) removed.push(id);
    }
    if (added.length === 0 && removed.length === 0 && seen.size === current.length) this.inStep = current.slice();
    return { added, removed };
  }

  /** True when the index holds exactly `list`'s messages (as of the last diff that found no work). */
  private inStepWith(list: readonly HistoryMessage[]): boolean {
    const inStep = this.inStep;
    if (inStep.length !== list.length || inStep.length !== this.messages.size) return false;
    for (let i = 0; i < list.length; i++) if (list[i] !== inStep[i]) return false;
    return true;
  }

  has(message: HistoryMessage): boolean {
    return this.messages.get(message.id)?.message === message;
  }

  /** Index one message (replacing what was indexed under its id). Synchronous. */
  addMessage(message: HistoryMessage): void {
    for (const _ of this.addMessageSteps(message));
  }

  /** Indexes one message a document at a time, yielding after each, so a caller can pause. */
  *addMessageSteps(message: HistoryMessage): Generator<void> {
    this.removeMessage(message.id);
    const entry: MessageEntry = { message, slot: this.messagesInserted++, docs: 0 };
    this.messages.set(message.id, entry);
    let partId: string | undefined;
    for (const doc of messageDocs(message, this.visibility)) {
      if (doc.partId !== partId) {
        partId = doc.partId;
        this.partsInserted++;
      }
      this.docsInserted++;
      const chunk: ChunkDocument = {
        id: docId(entry.slot, entry.docs),
        text: doc.input > 0 ? [doc.text, doc.text.slice(0, doc.input)] : [doc.text],
        message: entry.slot,
        messageId: message.id,
        type: doc.type,
        part: doc.partId,
        start: doc.start,
        end: doc.end,
        // Every chunk has the same shape (absent values undefined, which Orama skips): chunks of
        // two shapes made the insert path deoptimize.
        tool: doc.tool,
      };
      insert(this.db, chunk);
      this.setPart(this.db.data.docs.internalId(chunk.id), this.partsInserted);
      entry.docs++;
      if (entry.docs > this.mostDocs) this.mostDocs = entry.docs;
      yield;
    }
  }

  private setPart(doc: number, part: number): void {
    if (doc >= this.partOfDoc.length) this.partOfDoc = grown(this.partOfDoc, doc + 1);
    this.partOfDoc[doc] = part;
  }

  removeMessage(messageId: string): void {
    const entry = this.messages.get(messageId);
    if (!entry) return;
    for (let k = 0; k < entry.docs; k++) remove(this.db, docId(entry.slot, k));
    this.messages.delete(messageId);
    this.inStep = [];
  }

  /**
   * The documents of the best messages (`groups` of them, else as many as the setup says) matching
   * the query that the filters accept and the view shows, scored (BM25 × coverage), best first.
   * Orama's search asks the index component (postings-index.ts) for them. Its `limit` costs an
   * array slot each: the first asks for as many as the best messages can hold, and only when
   * messages tied at the cut hold more is the search made again for every one.
   */
  search(query: string | SearchQuery, filters: SearchFilters, view: SessionView, groups: number = this.setupGroups()): IndexHit[] {
    const docs = count(this.db);
    if (docs === 0) return [];
    const where = this.where(filters, view);
    let found = this.searchOrama(query, where, groups, Math.min(docs, groups * this.mostDocs));
    if (found.count > found.hits.length) found = this.searchOrama(query, where, groups, found.count);
    const hits: IndexHit[] = [];
    for (const hit of found.hits) {
      const meta = hit.document;
      const entry = this.messages.get(meta.messageId);
      if (entry) hits.push({ meta, message: entry.message, score: hit.score });
    }
    return hits;
  }

  /** One call of Orama's search: the documents of the best `groups` messages, at most `limit`, and how many there were. */
  private searchOrama(query: string | SearchQuery, where: Where | undefined, groups: number, limit: number): Results<DocMeta> {
    const text = typeof query === "string" ? query : query.text;
    // includeVectors: there are none, and leaving it false copies every hit and its document to strip them.
    const params: SearchParamsFullText<ChunkDb, DocMeta> = { term: text, properties: [TEXT_PROPERTY], where, limit, includeVectors: true };
    const run = () => search<ChunkDb, DocMeta>(this.db, params);
    let found: Results<DocMeta> | Promise<Results<DocMeta>>;
    this.groups = groups;
    try {
      found = typeof query === "string" ? run() : this.tokenizer.parsing(query, run);
    } finally {
      this.groups = undefined;
    }
    // No before/after-search hooks are installed, so Orama answers synchronously.
    if (found instanceof Promise) throw new Error("Orama's search answered asynchronously");
    return found;
  }

  /**
   * The filters and the view's hidden messages as Orama's where clause, one condition per
   * property (all must hold); undefined: no filter.
   */
  private where(filters: SearchFilters, view: SessionView): Where | undefined {
    const where: Where = {};
    let any = false;
    if (HIT_TYPES.some((type) => !filters.types.has(type))) {
      where.type = { in: [...filters.types] };
      any = true;
    }
    if (filters.tool !== undefined) {
      where.tool = { eq: filters.tool };
      any = true;
    }
    const excluded = this.excludedMessages(filters, view);
    if (excluded.length > 0) {
      where.message = { nin: excluded };
      any = true;
    }
    return any ? where : undefined;
  }

  /**
   * Slots of indexed messages a search may not return: those the view does not show (its hidden
   * tail, and any it does not hold as indexed) and those the per-message filters reject.
   */
  private excludedMessages(filters: SearchFilters, view: SessionView): number[] {
    const { role, after, before } = filters;
    const perMessage = role !== undefined || after !== undefined || before !== undefined;
    if (!perMessage && this.inStepWith(view.messages)) return view.messages.slice(view.visibleEnd).map((message) => this.messages.get(message.id)!.slot);
    // By slot, the indexed messages the view shows in the version indexed.
    const shown = new Uint8Array(this.messagesInserted);
    for (let i = 0; i < view.visibleEnd; i++) {
      const message = view.messages[i]!;
      const entry = this.messages.get(message.id);
      if (entry?.message === message) shown[entry.slot] = 1;
    }
    const excluded: number[] = [];
    for (const { message, slot } of this.messages.values()) {
      const created = message.created;
      const accepted =
        (role === undefined || message.role === role) &&
        (after === undefined || (created !== undefined && created > after)) &&
        (before === undefined || (created !== undefined && created < before));
      if (shown[slot] === 0 || !accepted) excluded.push(slot);
    }
    return excluded;
  }

  /** Drops the arrays' growth headroom (after a build), a bounded piece per step; nothing may be added meanwhile. */
  *trimSteps(): Generator<void> {
    const index = this.db.data.index;
    yield* trimSteps(index.postings);
    index.attributes.trim(index.postings.docsEnd);
    this.partOfDoc = this.partOfDoc.slice(0, index.postings.docsEnd + 64);
  }

  get messageCount(): number {
    return this.messages.size;
  }

  /** The indexed terms a typo is corrected from (text/typos.ts), each with its live documents. */
  vocabulary(): Vocabulary {
    const postings = this.db.data.index.postings;
    return {
      forEachTerm: (_first, minLength, maxLength, visit) => postings.terms.forEachLetterTerm(minLength, maxLength, visit),
      text: (id) => postings.terms.text(id),
      documents: (id) => liveDocFrequency(postings, id),
    };
  }

  /** The statistics BM25 ranks the query's terms with in this index (project scope sums them). */
  stats(parsed: ParsedQuery): CollectionStats {
    return collectionStats(this.db.data.index.postings, parsed);
  }

  /** Share of indexed documents that are dead (removed but still in postings). */
  get deadRatio(): number {
    const store = this.db.data.index.postings;
    const total = store.liveDocs + store.deadDocs;
    return total === 0 ? 0 : store.deadDocs / total;
  }

  /** Estimated heap held, for the byte-bounded cache: typed arrays exactly, objects per unit. */
  bytes(): number {
    const index = this.db.data.index;
    return (
      postingsBytes(index.postings) +
      index.attributes.bytes() +
      this.partOfDoc.byteLength +
      this.docsInserted * DOC_OVERHEAD_BYTES +
      this.messagesInserted * MESSAGE_OVERHEAD_BYTES
    );
  }
}
