// One session's Orama index: documents per part chunk, tracked per message by object identity so
// an update touches only new, changed and removed messages. Orama holds the documents through
// our components (packed postings, metadata-only store); search asks the index component for the
// documents of the best messages only.

import { create, insert, remove, search, type Orama } from "@orama/orama";
import type { HistoryMessage } from "../../history/types.ts";
import type { ToolVisibility } from "../../history/tool-visibility.ts";
import { createMetaStoreComponent, type DocMeta } from "./components/meta-store.ts";
import { collectionStats, createPostingsIndexComponent, postingsBytes, removeDocument, trimStore, type PostingsStore, type SearchRequest } from "./components/postings-index.ts";
import { createTokenizerComponent } from "./components/tokenizer.ts";
import { messageDocs, type HitType } from "../text/documents.ts";
import type { CollectionStats } from "../rank/bm25.ts";

const SCHEMA = { text: "string" } as const;

/** Heap per document and per message beyond the typed arrays (meta object, ids, Orama's id maps); measured in the bench. */
export const DOC_OVERHEAD_BYTES = 300;
export const MESSAGE_OVERHEAD_BYTES = 180;

interface Indexed {
  message: HistoryMessage;
  slot: number;
  docs: DocMeta[];
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

export type HitFilter = (message: HistoryMessage, type: HitType, tool: string | undefined) => boolean;

export class SessionIndex {
  private readonly db: Orama<typeof SCHEMA>;
  private readonly messages = new Map<string, Indexed>();
  /** Indexed message by slot (a message gets a new slot each time it is indexed). */
  private readonly slots: Array<Indexed | undefined> = [];
  /** The message list the index matched at the last diff that found nothing to do. */
  private inStep: readonly HistoryMessage[] = [];
  private seq = 0;
  private liveDocs = 0;

  constructor(private readonly visibility: ToolVisibility) {
    this.db = create({
      schema: SCHEMA,
      sort: { enabled: false },
      components: {
        tokenizer: createTokenizerComponent(),
        index: createPostingsIndexComponent(),
        documentsStore: createMetaStoreComponent(),
      },
    }) as unknown as Orama<typeof SCHEMA>;
  }

  private get store(): PostingsStore & { request?: SearchRequest } {
    return this.db.data.index as unknown as PostingsStore;
  }

  private get metas(): Record<number, DocMeta> {
    return (this.db.data.docs as unknown as { docs: Record<number, DocMeta> }).docs;
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
        let indexed = previous.length;
        for (let i = previous.length; i < current.length; i++) {
          if (this.has(current[i]!)) indexed++;
          else added.push(current[i]!);
        }
        if (indexed === this.messages.size) {
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
  inStepWith(list: readonly HistoryMessage[]): boolean {
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
    const metas: DocMeta[] = [];
    const slot = this.slots.length;
    const indexed: Indexed = { message, slot, docs: metas };
    this.slots.push(indexed);
    this.messages.set(message.id, indexed);
    const store = this.store;
    for (const doc of messageDocs(message, this.visibility)) {
      const meta: DocMeta = { id: `d${this.seq++}`, internalId: 0, messageId: message.id, partId: doc.partId, type: doc.type, start: doc.start, end: doc.end };
      if (doc.tool !== undefined) meta.tool = doc.tool;
      store.nextMessage = slot;
      insert(this.db, { id: meta.id, text: doc.text, meta } as never);
      metas.push(meta);
      this.liveDocs++;
      yield;
    }
  }

  removeMessage(messageId: string): void {
    const indexed = this.messages.get(messageId);
    if (!indexed) return;
    for (const meta of indexed.docs) {
      remove(this.db, meta.id);
      removeDocument(this.store, meta.internalId);
      this.liveDocs--;
    }
    this.slots[indexed.slot] = undefined;
    this.messages.delete(messageId);
    this.inStep = [];
  }

  /**
   * The documents of the `messages` best messages among those `accept` lets through (every
   * accepted document of each), scored (BM25 × coverage). Ranking by message is rank.ts's.
   */
  search(query: string, accept: HitFilter, messages: number): IndexHit[] {
    if (this.liveDocs === 0) return [];
    const metas = this.metas;
    const store = this.store;
    const slots = this.slots;
    const messageOf = store.message;
    store.request = {
      messages,
      accept: (doc) => {
        const meta = metas[doc];
        const indexed = slots[messageOf[doc]!];
        return meta !== undefined && indexed !== undefined && accept(indexed.message, meta.type, meta.tool);
      },
      tieBreak: (a, b) => {
        const am = slots[a]!.message;
        const bm = slots[b]!.message;
        const at = am.created ?? 0;
        const bt = bm.created ?? 0;
        if (at !== bt) return bt - at;
        return am.id < bm.id ? 1 : am.id > bm.id ? -1 : 0;
      },
    };
    let result: { hits: Array<{ score: number; document: DocMeta }> };
    try {
      result = search(this.db, { term: query, limit: this.liveDocs }) as unknown as typeof result;
    } finally {
      store.request = undefined;
    }
    const hits: IndexHit[] = [];
    for (const hit of result.hits) {
      const indexed = this.messages.get(hit.document.messageId);
      if (indexed) hits.push({ meta: hit.document, message: indexed.message, score: hit.score });
    }
    return hits;
  }

  /** The statistics BM25 ranks the query's terms with in this index (project scope sums them). */
  stats(query: string): CollectionStats {
    return collectionStats(this.store, query);
  }

  /** Drops the arrays' growth headroom (after a build). */
  trim(): void {
    trimStore(this.store);
  }

  indexedMessage(messageId: string): HistoryMessage | undefined {
    return this.messages.get(messageId)?.message;
  }

  get messageCount(): number {
    return this.messages.size;
  }

  /** Share of indexed documents that are dead (removed but still in postings). */
  get deadRatio(): number {
    const store = this.store;
    const total = store.liveDocs + store.deadDocs;
    return total === 0 ? 0 : store.deadDocs / total;
  }

  /** Estimated heap held, for the byte-bounded cache: typed arrays exactly, objects per unit. */
  bytes(): number {
    return postingsBytes(this.store) + this.seq * DOC_OVERHEAD_BYTES + this.slots.length * MESSAGE_OVERHEAD_BYTES;
  }
}
