// One session's Orama index: documents per part chunk, tracked per message by object identity so
// an update touches only new, changed and removed messages.

import { create, insert, remove, search, type Orama } from "@orama/orama";
import type { HistoryMessage } from "../history/types.ts";
import type { ToolVisibility } from "../history/tool-visibility.ts";
import { createMetaStoreComponent, type DocMeta } from "./components/meta-store.ts";
import { createPostingsIndexComponent, postingsBytes, removeDocument, type PostingsStore } from "./components/postings-index.ts";
import { createTokenizerComponent } from "./components/tokenizer.ts";
import { messageDocs } from "./documents.ts";

const SCHEMA = { text: "string" } as const;

interface Indexed {
  message: HistoryMessage;
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

export class SessionIndex {
  private readonly db: Orama<typeof SCHEMA>;
  private readonly messages = new Map<string, Indexed>();
  private seq = 0;
  private liveDocs = 0;

  constructor(private readonly visibility: ToolVisibility) {
    this.db = create({
      schema: SCHEMA,
      components: {
        tokenizer: createTokenizerComponent(),
        index: createPostingsIndexComponent(),
        documentsStore: createMetaStoreComponent(),
      },
    }) as unknown as Orama<typeof SCHEMA>;
  }

  private get store(): PostingsStore {
    return this.db.data.index as unknown as PostingsStore;
  }

  /** Messages to add (new or changed object) and ids to drop, against `current`. */
  diff(current: readonly HistoryMessage[]): MessageDiff {
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
    const metas: DocMeta[] = [];
    this.messages.set(message.id, { message, docs: metas });
    for (const doc of messageDocs(message, this.visibility)) {
      const meta: DocMeta = { id: `d${this.seq++}`, internalId: 0, messageId: message.id, partId: doc.partId, type: doc.type, start: doc.start, end: doc.end };
      if (doc.tool !== undefined) meta.tool = doc.tool;
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
    this.messages.delete(messageId);
  }

  /** Every live document matching any query term, scored (BM25 × coverage). */
  search(query: string): IndexHit[] {
    if (this.liveDocs === 0) return [];
    const result = search(this.db, { term: query, limit: this.liveDocs }) as unknown as {
      hits: Array<{ score: number; document: DocMeta }>;
    };
    const hits: IndexHit[] = [];
    for (const hit of result.hits) {
      const indexed = this.messages.get(hit.document.messageId);
      if (indexed) hits.push({ meta: hit.document, message: indexed.message, score: hit.score });
    }
    return hits;
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

  /** Estimated heap held, for the byte-bounded cache. */
  bytes(): number {
    return postingsBytes(this.store) + this.seq * 160 + this.messages.size * 120;
  }
}
