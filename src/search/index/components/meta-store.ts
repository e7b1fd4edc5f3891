// Orama documents-store component keeping each chunk's row of the session's chunk table (its
// message, part, range and a call's input: term-counts.ts's ChunkList, shared with the chunk
// index component), not its text: the text stays in the host's message objects and is re-read
// for snippets.

import { components, type AnyDocument, type AnyDocumentStore, type IDocumentsStore } from "@orama/orama";
import type { HitType } from "../../text/documents.ts";
import { CHUNK_STRIDE, type ChunkRef } from "../../types.ts";
import { chunkPart, type ChunkList } from "../term-counts.ts";

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

/** What search returns of a document. */
export interface DocMeta extends ChunkRef {
  slot: number;
}

/** The chunk table's rows by Orama's internal document id; a removed chunk's message is -1. */
export class ChunkStore {
  /** Orama's type asks for its documents by id; only its getAll and save read them, never reached here (ReachedDocumentsStore). */
  readonly docs: Record<number, AnyDocument> = {};
  count = 0;

  constructor(
    readonly table: ChunkList,
    private readonly ids: components.internalDocumentIDStore.InternalDocumentIDStore,
  ) {}

  internalId(id: string | number): number {
    return components.internalDocumentIDStore.getInternalDocumentId(this.ids, id);
  }

  /** The chunk's row as search returns it; undefined when absent or removed. */
  meta(chunk: number): DocMeta | undefined {
    const rows = this.table.chunks;
    const row = chunk * CHUNK_STRIDE;
    const slot = rows[row];
    if (slot === undefined || slot < 0) return undefined;
    const part = this.table.part(rows[row + 1]!);
    const meta: DocMeta = { slot, partId: part.id, type: part.type, start: rows[row + 2]!, end: rows[row + 3]! };
    if (part.tool !== undefined) meta.tool = part.tool;
    if (rows[row + 4]! > 0) meta.input = rows[row + 4]!;
    return meta;
  }
}

/**
 * The methods of Orama's documents-store interface that Orama reaches for our use (insert,
 * remove, count, and search without sortBy, facets, groupBy or an empty term): getMultiple and
 * getAll serve those, load/save its serialization.
 */
export type ReachedDocumentsStore<D extends AnyDocumentStore> = Pick<IDocumentsStore<D>, "create" | "get" | "store" | "remove" | "count">;

/** The documents store over `table` (the session index's, shared with its chunk index). */
export function createChunkStoreComponent(table: ChunkList): ReachedDocumentsStore<ChunkStore> {
  return {
    create: (_orama, ids) => new ChunkStore(table, ids),
    // Search hands internal ids, remove the document's own.
    get: (store, id) => store.meta(store.internalId(id)),
    store(store, _id, internalId, doc: AnyDocument) {
      const rows = store.table.chunks;
      const row = internalId * CHUNK_STRIDE;
      if (rows[row] !== undefined) return false;
      const input: unknown = doc.text[1];
      rows[row] = doc.slot;
      rows[row + 1] = doc.partSlot;
      rows[row + 2] = doc.start;
      rows[row + 3] = doc.end;
      rows[row + 4] = typeof input === "string" ? input.length : 0;
      store.table.parts[doc.partSlot] ??= chunkPart(doc.part, doc.type, doc.tool);
      store.count++;
      return true;
    },
    remove(store, id) {
      const internal = store.internalId(id);
      const rows = store.table.chunks;
      if (!(rows[internal * CHUNK_STRIDE]! >= 0)) return false;
      rows[internal * CHUNK_STRIDE] = -1;
      store.count--;
      return true;
    },
    count: (store) => store.count,
  };
}
