// A session's chunk table (search/types.ts's ChunkTable) as the projection file keeps it: one
// blob of numbers and one text of ids, rather than JSON (schema 6 wrote an object per message and
// part, about 10 times the bytes, and parsing it cost more than ranking from it). Decoding makes
// typed-array views over the blob and nothing else; a message or part becomes an object only when
// asked for, its id sliced from the text then by the offsets the blob holds, so no separator
// between ids is needed and no id can break it.
//
// The blob, Int32 values in the machine's byte order (the file is a cache of this machine's):
//   header   messages, parts, chunks, tools, where the parts' ids start in the text, where the tool names do
//   chunks   CHUNK_STRIDE each: message place, part place, start, end, input
//   messages 4 each: end of its id in the text, role (ROLES), flags, turn
//   parts    3 each: end of its id in the text, type (HIT_TYPES), tool (its place in tools, -1: none)
//   tools    1 each: end of its name in the text
//   (one Int32 of padding when needed, so what follows is 8-byte aligned)
//   created  Float64 per message: epoch ms (0 unknown)
// The text: the messages' ids, then the parts', then the tool names, one after the other.

import type { Role } from "../history/types.ts";
import { CHUNK_STRIDE, type ChunkMessage, type ChunkPart, type ChunkTable, HIT_TYPES, type HitType } from "../search/projection-contract.ts";

const ROLES: readonly Role[] = ["user", "assistant"];
const HEADER = 6;
const MESSAGE = 4;
const PART = 3;

/** A chunk table as the file keeps it. */
export interface EncodedChunkTable {
  data: Uint8Array;
  ids: string;
}

/** What encoding reads of a table: its messages and parts whole, as session-terms.ts's ChunkList holds them. */
export interface ChunkTableSource {
  readonly messages: readonly ChunkMessage[];
  readonly parts: readonly ChunkPart[];
  readonly chunks: ArrayLike<number>;
}

export function encodeChunkTable(source: ChunkTableSource): EncodedChunkTable {
  const { messages, parts, chunks } = source;
  const tools = new Map<string, number>();
  for (const part of parts) if (part.tool !== undefined && !tools.has(part.tool)) tools.set(part.tool, tools.size);
  const ints = HEADER + chunks.length + MESSAGE * messages.length + PART * parts.length + tools.size;
  const padded = ints + (ints % 2);
  const buffer = new ArrayBuffer(padded * 4 + messages.length * 8);
  const out = new Int32Array(buffer, 0, padded);
  const created = new Float64Array(buffer, padded * 4, messages.length);
  for (let i = 0; i < chunks.length; i++) out[HEADER + i] = chunks[i]!;
  let at = HEADER + chunks.length;
  const text: string[] = [];
  let end = 0;
  const id = (value: string) => {
    text.push(value);
    end += value.length;
    return end;
  };
  const partText = messages.reduce((sum, message) => sum + message.id.length, 0);
  const toolText = parts.reduce((sum, part) => sum + part.id.length, partText);
  out.set([messages.length, parts.length, chunks.length / CHUNK_STRIDE, tools.size, partText, toolText]);
  messages.forEach((message, m) => {
    out.set([id(message.id), code(ROLES, message.role), message.flags, message.turn], at);
    at += MESSAGE;
    created[m] = message.created;
  });
  for (const part of parts) {
    out.set([id(part.id), code(HIT_TYPES, part.type), part.tool === undefined ? -1 : tools.get(part.tool)!], at);
    at += PART;
  }
  for (const tool of tools.keys()) out[at++] = id(tool);
  return { data: new Uint8Array(buffer), ids: text.join("") };
}

function code<T>(values: readonly T[], value: T): number {
  const at = values.indexOf(value);
  if (at < 0) throw new Error(`chunk table: unknown value ${String(value)}`);
  return at;
}

/** The table over an encoded one: views only, until a message or part is asked for. */
export function decodeChunkTable(encoded: EncodedChunkTable): ChunkTable {
  return new BlobChunkTable(encoded);
}

class BlobChunkTable implements ChunkTable {
  readonly chunks: Int32Array;
  private readonly ints: Int32Array;
  private readonly created: Float64Array;
  private readonly ids: string;
  private readonly messageAt: number;
  private readonly partAt: number;
  private readonly toolAt: number;
  private readonly partText: number;
  private readonly toolText: number;
  private readonly messages: (ChunkMessage | undefined)[] = [];
  private readonly parts: (ChunkPart | undefined)[] = [];

  constructor({ data, ids }: EncodedChunkTable) {
    // A blob the driver hands back inside a larger buffer may sit at any offset: views need alignment.
    const bytes = data.byteOffset % 8 === 0 ? data : data.slice();
    const [messages, parts, chunks, tools, partText, toolText] = Array.from(new Int32Array(bytes.buffer, bytes.byteOffset, HEADER)) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    this.partText = partText;
    this.toolText = toolText;
    this.messageAt = HEADER + chunks * CHUNK_STRIDE;
    this.partAt = this.messageAt + messages * MESSAGE;
    this.toolAt = this.partAt + parts * PART;
    const ints = this.toolAt + tools;
    const padded = ints + (ints % 2);
    if (bytes.byteLength !== padded * 4 + messages * 8) throw new Error(`chunk table: ${bytes.byteLength} bytes, expected ${padded * 4 + messages * 8}`);
    this.ints = new Int32Array(bytes.buffer, bytes.byteOffset, ints);
    this.chunks = this.ints.subarray(HEADER, this.messageAt);
    this.created = new Float64Array(bytes.buffer, bytes.byteOffset + padded * 4, messages);
    this.ids = ids;
  }

  message(place: number): ChunkMessage {
    let message = this.messages[place];
    if (!message) {
      const at = this.messageAt + place * MESSAGE;
      if (place < 0 || at >= this.partAt) throw new RangeError(`chunk table: no message ${place}`);
      const ints = this.ints;
      message = this.messages[place] = {
        id: this.ids.slice(place === 0 ? 0 : ints[at - MESSAGE]!, ints[at]!),
        role: ROLES[ints[at + 1]!]!,
        created: this.created[place]!,
        flags: ints[at + 2]!,
        turn: ints[at + 3]!,
      };
    }
    return message;
  }

  part(place: number): ChunkPart {
    let part = this.parts[place];
    if (!part) {
      const at = this.partAt + place * PART;
      if (place < 0 || at >= this.toolAt) throw new RangeError(`chunk table: no part ${place}`);
      const ints = this.ints;
      const start = place === 0 ? this.partText : ints[at - PART]!;
      const id = this.ids.slice(start, ints[at]!);
      const type = HIT_TYPES[ints[at + 1]!] as HitType;
      const tool = ints[at + 2]!;
      part = this.parts[place] = tool < 0 ? { id, type } : { id, type, tool: this.tool(tool) };
    }
    return part;
  }

  private tool(place: number): string {
    const at = this.toolAt + place;
    const start = place === 0 ? this.toolText : this.ints[at - 1]!;
    return this.ids.slice(start, this.ints[at]!);
  }
}
