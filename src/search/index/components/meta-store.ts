// Orama documents-store component that keeps only each document's small metadata, not its text:
// the text stays in the host's message objects and is re-read for snippets.

import { components, type AnyDocument, type IDocumentsStore } from "@orama/orama";
import type { HitType } from "../../text/documents.ts";

/** A document as the session index inserts it: one chunk of one part. */
export interface ChunkDocument {
  id: string;
  text: string;
  /** The owner's number for the message (the `message` attribute). */
  message: number;
  messageId: string;
  type: HitType;
  tool?: string;
  part: string;
  /** Chunk range in the part's searchable text. */
  start: number;
  end: number;
  /** The chunk's leading text that is a tool call's input (indexed again, not stored). */
  input?: string;
}

/** What the store keeps of a document (and search returns). */
export interface DocMeta {
  messageId: string;
  partId: string;
  type: HitType;
  tool?: string;
  start: number;
  end: number;
  /** Code units at the chunk's start that are the tool call's input. */
  input?: number;
}

export class MetaStore {
  /**
   * By Orama's internal document id (from 1; undefined once removed). An array, not an object:
   * ids run densely, and a search looks up thousands of them.
   */
  readonly docs: Array<DocMeta | undefined> = [undefined];
  count = 0;

  constructor(private readonly ids: components.internalDocumentIDStore.InternalDocumentIDStore) {}

  internalId(id: string | number): number {
    return components.internalDocumentIDStore.getInternalDocumentId(this.ids, id);
  }
}

/** The metadata of a ChunkDocument (Orama hands the store any document). */
function metaOf(doc: AnyDocument): DocMeta {
  const meta: DocMeta = { messageId: doc.messageId, partId: doc.part, type: doc.type, start: doc.start, end: doc.end };
  if (doc.tool !== undefined) meta.tool = doc.tool;
  if (typeof doc.input === "string") meta.input = doc.input.length;
  return meta;
}

export function createMetaStoreComponent(): IDocumentsStore<MetaStore> {
  const unsupported = (): never => {
    throw new Error("search index is in memory only");
  };
  return {
    create: (_orama, ids) => new MetaStore(ids),
    get: (store, id) => store.docs[store.internalId(id)],
    getMultiple: (store, ids) => ids.map((id) => store.docs[store.internalId(id)]),
    getAll: (store) => {
      const all: Record<number, DocMeta> = {};
      store.docs.forEach((meta, id) => {
        if (meta !== undefined) all[id] = meta;
      });
      return all;
    },
    store(store, _id, internalId, doc) {
      if (store.docs[internalId] !== undefined) return false;
      store.docs[internalId] = metaOf(doc);
      store.count++;
      return true;
    },
    remove(store, id) {
      const internal = store.internalId(id);
      if (store.docs[internal] === undefined) return false;
      store.docs[internal] = undefined;
      store.count--;
      return true;
    },
    count: (store) => store.count,
    load: unsupported,
    save: unsupported,
  };
}
