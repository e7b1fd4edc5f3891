import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CHUNK_STRIDE, type ChunkMessage, type ChunkPart, HIT_TYPES } from "../search/projection-contract.ts";
import { type ChunkTableSource, decodeChunkTable, encodeChunkTable } from "./chunk-table-blob.ts";

const message = fc.record<ChunkMessage>({
  id: fc.string({ maxLength: 30 }),
  role: fc.constantFrom("user", "assistant"),
  created: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2 ** 45 }), fc.double({ min: 0, max: 1e15, noNaN: true })),
  flags: fc.integer({ min: 0, max: 7 }),
  turn: fc.nat(100_000),
});
const part = fc.record<ChunkPart>(
  { id: fc.string({ maxLength: 30 }), type: fc.constantFrom(...HIT_TYPES), tool: fc.constantFrom("bash", "read", "", "mcp_x\u0000y", "工具") },
  { requiredKeys: ["id", "type"] },
);
const table = fc
  .record({ messages: fc.array(message, { minLength: 1, maxLength: 12 }), parts: fc.array(part, { minLength: 1, maxLength: 12 }) })
  .chain(({ messages, parts }) =>
    fc
      .array(fc.tuple(fc.nat(messages.length - 1), fc.nat(parts.length - 1), fc.nat(2 ** 30), fc.nat(2 ** 30), fc.nat(5_000)), { maxLength: 40 })
      .map((chunks): ChunkTableSource => ({ messages, parts, chunks: chunks.flat() })),
  );
const empty: ChunkTableSource = { messages: [], parts: [], chunks: [] };

describe("chunk table blob", () => {
  it("gives back every chunk, message and part it was given, ids of any text included", () => {
    fc.assert(
      fc.property(table, (source) => {
        const decoded = decodeChunkTable(encodeChunkTable(source));
        expect(Array.from(decoded.chunks)).toEqual(source.chunks);
        // Asked in reverse: a place's object never depends on the ones asked before it.
        for (let m = source.messages.length - 1; m >= 0; m--) expect(decoded.message(m)).toEqual(source.messages[m]);
        for (let p = source.parts.length - 1; p >= 0; p--) expect(decoded.part(p)).toEqual(source.parts[p]);
        expect(decoded.message(0)).toBe(decoded.message(0));
      }),
    );
  });

  it("reads a blob handed back at any offset of a larger buffer, and refuses one of the wrong size", () => {
    const source: ChunkTableSource = {
      messages: [{ id: "msg_1", role: "assistant", created: 1_700_000_000_123, flags: 6, turn: 3 }],
      parts: [
        { id: "prt_a", type: "tool", tool: "bash" },
        { id: "prt_b", type: "text" },
      ],
      chunks: [0, 0, 0, 10, 4, 0, 1, 0, 2_000, 0],
    };
    const { data, ids } = encodeChunkTable(source);
    const shifted = new Uint8Array(data.length + 3);
    shifted.set(data, 3);
    const decoded = decodeChunkTable({ data: shifted.subarray(3), ids });
    expect(decoded.chunks.length).toBe(2 * CHUNK_STRIDE);
    expect(decoded.part(0)).toEqual({ id: "prt_a", type: "tool", tool: "bash" });
    expect(decoded.message(0).created).toBe(1_700_000_000_123);
    expect(() => decoded.message(1)).toThrow(RangeError);
    expect(() => decodeChunkTable({ data: data.subarray(0, data.length - 8), ids })).toThrow(/bytes/);
    expect(decodeChunkTable(encodeChunkTable(empty)).chunks.length).toBe(0);
  });

  it("keeps a chunk in 20 bytes, a message in 24 and a part in 12, besides the ids", () => {
    const messages = Array.from({ length: 100 }, (_, i): ChunkMessage => ({ id: `m${i}`, role: "user", created: i, flags: 0, turn: i }));
    const parts = Array.from({ length: 200 }, (_, i): ChunkPart => ({ id: `p${i}`, type: "tool", tool: i % 2 ? "bash" : "read" }));
    const chunks = Array.from({ length: 1000 }, (_, i) => [i % 100, i % 200, 0, 100, 0]).flat();
    const { data } = encodeChunkTable({ messages, parts, chunks });
    expect(data.length).toBe(6 * 4 + 1000 * 20 + 100 * 24 + 200 * 12 + 2 * 4);
  });
});
