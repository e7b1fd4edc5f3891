// Orama documents-store component that keeps only each document's small metadata, not its text:
// the text stays in the host's message objects and is re-read for snippets.

import { components, type AnyDocument, type AnyDocumentStore, type IDocumentsStore } from "@orama/orama";
import type { HitType } from "../../text/documents.ts";
import type { ChunkRef } from "../../types.ts";

/** A document as the session index inserts it: one chunk of one part. */
export interface ChunkDocument {
  id: string;
  /**
   * The chunk's text, then, when the chunk opens with a tool call's input, that input (a prefix
   * of the text, whose terms count inputWeight (tuning.ts) times in all): one property, so the index
   * component gets both in one insert.
   */
  text: [text: string] | [text: string, input: string];
  /** The owner's number for this indexing of the message. */
  slot: number;
  /** The owner's number for the part within this indexing (equal for a part's chunks). */
  partSlot: number;
  type: HitType;
  tool?: string;
  part: string;
  /** Chunk range in the part's searchable text. */
  start: number;
  end: number;
}

/** What the store keeps of a document (and search returns). */
export interface DocMeta extends ChunkRef {
  slot: number;
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
  const meta: DocMeta = { slot: doc.slot, partId: doc.part, type: doc.type, start: doc.start, end: doc.end };
  if (doc.tool !== undefined) meta.tool = doc.tool;
  const input: unknown = doc.text[1];
  if (typeof input === "string") meta.input = input.length;
  return meta;
}

/**
 * The methods of Orama's documents-store interface that Orama reaches for our use (insert,
 * remove, count, and search without sortBy, facets, groupBy or an empty term): getMultiple and
 * getAll serve those, load/save its serialization.
 */
export type ReachedDocumentsStore<D extends AnyDocumentStore> = Pick<IDocumentsStore<D>, "create" | "get" | "store" | "remove" | "count">;

export function createMetaStoreComponent(): ReachedDocumentsStore<MetaStore> {
  return {
    create: (_orama, ids) => new MetaStore(ids),
    // Search hands internal ids, remove the document's own.
    get: (store, id) => store.docs[store.internalId(id)],
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
  };
}
