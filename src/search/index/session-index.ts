// One session's Orama index: documents per part chunk, tracked per message by object identity so
// an update touches only new, changed and removed messages. Orama inserts, removes and searches
// through our components: the chunk index holding the session's term counts (chunk-index.ts) and
// a documents store keeping each chunk's place, not its text. A search's filters and the view's
// hidden messages travel as Orama's `where` clause.

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
import type { SearchTuning } from "../tuning.ts";
import type { SessionView } from "../../history/view.ts";
import type { SearchFilters } from "../types.ts";
import { HIT_TYPES, messageDocs } from "../text/documents.ts";
import { flatDocumentProperties, flatSchemaValidator } from "./components/flat-document.ts";
import { createChunkStoreComponent, type ChunkDocument, type ChunkStore, type DocMeta } from "./components/meta-store.ts";
import { ChunkList } from "./term-counts.ts";
import { CHUNK_SCHEMA, type ChunkIndexStore, type ChunkWhere, createChunkIndexComponent, queryParameter, TEXT_PROPERTY } from "./chunk-index.ts";
import type { Vocabulary } from "../text/typos.ts";
import type { CollectionStats } from "../rank/bm25.ts";
import type { ParsedQuery } from "../text/query.ts";

type ChunkDb = Orama<typeof CHUNK_SCHEMA, IIndex<ChunkIndexStore>, IDocumentsStore<ChunkStore>>;

/**
 * Heap per document and per message beyond the typed arrays (meta object, Orama's id and its id
 * maps; the message's entry); fitted to the bench's measured heap (2,000 and 10,000 messages,
 * Node and Bun).
 */
const DOC_OVERHEAD_BYTES = 220;
const MESSAGE_OVERHEAD_BYTES = 100;
/** Chunks counted since the counts were last grouped, past which (and an eighth of those grouped) they are grouped again: a search reads them one by one. */
const UNGROUPED_MAX = 1 << 16;

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
  /** The messages held by slot (undefined once removed or replaced). */
  private readonly bySlot: Array<MessageEntry | undefined> = [];
  /** The message list the index matched at the last diff that found nothing to do. */
  private inStep: readonly HistoryMessage[] = [];
  /** Documents and messages ever inserted (their ids stay in Orama's id maps). */
  private docsInserted = 0;
  private messagesInserted = 0;
  private partsInserted = 0;
  /** The most documents any message indexed has had (a bound on a search's hits per message). */
  private mostDocs = 0;

  constructor(
    private readonly visibility: ToolVisibility,
    private readonly tuning: SearchTuning,
  ) {
    // The chunks' rows, which the documents store writes and the index reads.
    const table = new ChunkList();
    this.db = create({
      schema: CHUNK_SCHEMA,
      sort: { enabled: false },
      // Orama's types ask for every method of its interfaces; ours have those Orama reaches for
      // the calls made here (ReachedIndex, ReachedDocumentsStore).
      components: {
        index: createChunkIndexComponent(table, tuning) as IIndex<ChunkIndexStore>,
        documentsStore: createChunkStoreComponent(table) as IDocumentsStore<ChunkStore>,
        validateSchema: flatSchemaValidator(CHUNK_SCHEMA),
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
    this.bySlot[entry.slot] = entry;
    let partId: string | undefined;
    for (const doc of messageDocs(message, this.visibility, this.tuning.chunkChars)) {
      if (doc.partId !== partId) {
        partId = doc.partId;
        this.partsInserted++;
      }
      this.docsInserted++;
      const chunk: ChunkDocument = {
        id: docId(entry.slot, entry.docs),
        text: doc.input > 0 ? [doc.text, doc.text.slice(0, doc.input)] : [doc.text],
        slot: entry.slot,
        partSlot: this.partsInserted,
        type: doc.type,
        part: doc.partId,
        start: doc.start,
        end: doc.end,
        // Every chunk has the same shape (absent values undefined, which Orama skips): chunks of
        // two shapes made the insert path deoptimize.
        tool: doc.tool,
      };
      insert(this.db, chunk);
      entry.docs++;
      if (entry.docs > this.mostDocs) this.mostDocs = entry.docs;
      yield;
    }
  }

  removeMessage(messageId: string): void {
    const entry = this.messages.get(messageId);
    if (!entry) return;
    for (let k = 0; k < entry.docs; k++) remove(this.db, docId(entry.slot, k));
    this.messages.delete(messageId);
    this.bySlot[entry.slot] = undefined;
    this.inStep = [];
  }

  /**
   * The documents holding a query term that the filters accept among the messages the view shows
   * as indexed, scored (BM25 × coverage against the index's statistics), best first; of the best
   * `messages` messages only, when given (ranking's score before its weights and boosts, ties at
   * the cut kept). Orama's search asks the chunk index component for them: the query its `term`,
   * the filters its `where`. Its `limit` costs an array slot each: the first asks for as many as
   * the best messages can hold, and only when messages tied at the cut hold more is it made again.
   */
  search(parsed: ParsedQuery, filters: SearchFilters, view: SessionView, messages?: number): IndexHit[] {
    const docs = count(this.db);
    if (docs === 0 || parsed.terms.length === 0) return [];
    const where = this.where(filters, view);
    const term = queryParameter({ terms: parsed.terms, messages });
    let found = this.searchOrama(term, where, messages === undefined ? docs : Math.min(docs, messages * this.mostDocs));
    if (found.count > found.hits.length) found = this.searchOrama(term, where, found.count);
    return found.hits.map((hit) => ({ meta: hit.document, message: this.bySlot[hit.document.slot]!.message, score: hit.score }));
  }

  private searchOrama(term: string, where: ChunkWhere, limit: number): Results<DocMeta> {
    // includeVectors: there are none, and leaving it false copies every hit and its document to strip them.
    const params = { term, properties: [TEXT_PROPERTY], where, limit, includeVectors: true };
    const found = search<ChunkDb, DocMeta>(this.db, params as SearchParamsFullText<ChunkDb, DocMeta>);
    // No before/after-search hooks are installed, so Orama answers synchronously.
    if (found instanceof Promise) throw new Error("Orama's search answered asynchronously");
    return found as Results<DocMeta>;
  }

  /** The filters and the view's hidden messages as the chunk index's where clause. */
  private where(filters: SearchFilters, view: SessionView): ChunkWhere {
    const where: ChunkWhere = {};
    if (HIT_TYPES.some((type) => !filters.types.has(type))) where.type = { in: [...filters.types] };
    if (filters.tool !== undefined) where.tool = { eq: filters.tool };
    const excluded = this.excludedSlots(filters, view);
    if (excluded.length > 0) where.slot = { nin: excluded };
    return where;
  }

  /**
   * Slots of indexed messages a search may not return: those the view does not show (its hidden
   * tail, and any it does not hold as indexed) and those the per-message filters reject.
   */
  private excludedSlots(filters: SearchFilters, view: SessionView): number[] {
    const { role, after, before } = filters;
    const perMessage = role !== undefined || after !== undefined || before !== undefined;
    if (!perMessage && this.inStepWith(view.messages)) return view.messages.slice(view.visibleEnd).map((message) => this.messages.get(message.id)!.slot);
    // By slot, the indexed messages the view shows in the version indexed.
    const shown = new Uint8Array(this.messagesInserted);
    for (let i = 0; i < view.visibleEnd; i++) {
      const entry = this.messages.get(view.messages[i]!.id);
      if (entry && entry.message === view.messages[i]) shown[entry.slot] = 1;
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

  /** True when the index holds exactly `list`'s messages (as of the last diff that found no work). */
  private inStepWith(list: readonly HistoryMessage[]): boolean {
    const inStep = this.inStep;
    if (inStep.length !== list.length || inStep.length !== this.messages.size) return false;
    for (let i = 0; i < list.length; i++) if (list[i] !== inStep[i]) return false;
    return true;
  }

  /** Whether enough chunks were counted since the counts were last grouped to group them again. */
  get groupDue(): boolean {
    const counts = this.db.data.index.counts;
    return counts.ungrouped > Math.min(UNGROUPED_MAX, counts.grouped / 8);
  }

  /** Groups the counts by term (after a build, and after appends), a bounded piece per step; nothing may be added meanwhile. */
  groupSteps(): Generator<void> {
    return this.db.data.index.counts.groupSteps();
  }

  get messageCount(): number {
    return this.messages.size;
  }

  /** The indexed terms a typo is corrected from (text/typos.ts), each with its live documents. */
  vocabulary(): Vocabulary {
    const index = this.db.data.index;
    const terms = index.counts.terms;
    return {
      forEachTerm: (_first, minLength, maxLength, visit) => terms.forEachLetterTerm(minLength, maxLength, visit),
      text: (id) => terms.text(id),
      documents: (id) => index.liveDf(id),
    };
  }

  /** The statistics BM25 ranks the query's terms with in this index (project scope sums them). */
  stats(parsed: ParsedQuery): CollectionStats {
    return this.db.data.index.stats(parsed.terms);
  }

  /** Share of indexed documents that are dead (removed but still counted). */
  get deadRatio(): number {
    const index = this.db.data.index;
    const total = index.liveDocs + index.deadDocs;
    return total === 0 ? 0 : index.deadDocs / total;
  }

  /** Estimated heap held, for the byte-bounded cache: typed arrays exactly, objects per unit. */
  bytes(): number {
    return this.db.data.index.bytes() + this.docsInserted * DOC_OVERHEAD_BYTES + this.messagesInserted * MESSAGE_OVERHEAD_BYTES;
  }
}
