// Orama documents-store component that keeps only each document's small metadata, not its text:
// the text stays in the host's message objects and is re-read for snippets.

import type { AnyDocument, IDocumentsStore } from "@orama/orama";
import type { HitType } from "../../text/documents.ts";

export interface DocMeta {
  /** Orama document id (unique per insertion). */
  id: string;
  internalId: number;
  messageId: string;
  partId: string;
  type: HitType;
  tool?: string;
  /** Chunk range in the part's searchable text. */
  start: number;
  end: number;
}

interface SharedIds {
  idToInternalId: Map<string, number>;
}

export interface MetaStore {
  shared: SharedIds;
  docs: Record<number, DocMeta>;
  count: number;
}

function internalIdOf(store: MetaStore, id: string | number): number | undefined {
  return typeof id === "number" ? id : store.shared.idToInternalId.get(id);
}

export function createMetaStoreComponent(): IDocumentsStore<MetaStore & { docs: Record<number, AnyDocument> }> {
  return {
    create: (_orama, shared) => ({ shared: shared as unknown as SharedIds, docs: {}, count: 0 }),
    get(store, id) {
      const internal = internalIdOf(store, id);
      return internal === undefined ? undefined : store.docs[internal];
    },
    getMultiple(store, ids) {
      return ids.map((id) => {
        const internal = internalIdOf(store, id);
        return internal === undefined ? undefined : store.docs[internal];
      });
    },
    getAll: (store) => store.docs,
    store(store, _id, internalId, doc) {
      if (store.docs[internalId] !== undefined) return false;
      const meta = (doc as { meta: DocMeta }).meta;
      meta.internalId = internalId;
      store.docs[internalId] = meta as unknown as AnyDocument;
      store.count++;
      return true;
    },
    remove(store, id) {
      const internal = internalIdOf(store, id);
      if (internal === undefined || store.docs[internal] === undefined) return false;
      delete store.docs[internal];
      store.count--;
      return true;
    },
    count: (store) => store.count,
    load() {
      throw new Error("search index is in memory only");
    },
    save() {
      throw new Error("search index is in memory only");
    },
  };
}
