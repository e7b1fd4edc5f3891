// What of a message is searchable: one document per part (text, reasoning, tool call as tool
// visibility allows), long parts cut into chunks so no document is huge.

import type { HistoryMessage, HistoryPart } from "../../history/types.ts";
import type { ToolVisibility } from "../../history/tool-visibility.ts";
import { toolCallSignature, toolPartText, toolResultText } from "../../history/tool-text.ts";

export type HitType = "text" | "tool" | "reasoning";
export const HIT_TYPES: readonly HitType[] = ["text", "tool", "reasoning"];

// A chunk ends at a line or word break near its target size (tuning.ts's chunkChars). A term in a
// tool call's input (its signature: the command, the file path, the pattern, the edit's strings)
// counts tuning.ts's inputWeight times, as in BM25F with a heavier field: the call made on a path
// or running a command outranks an output, or a long text, that merely mentions it.
const CUT_WINDOW = 512;

export interface DocInput {
  partId: string;
  type: HitType;
  tool?: string;
  /** Chunk range in the part's searchable text. */
  start: number;
  end: number;
  text: string;
  /** Code units at the chunk's start that are the tool call's input (0: none). */
  input: number;
}

/**
 * This plugin's own calls (history_search, history_pull_message, …) are not searched: their inputs
 * repeat the model's queries and their outputs repeat history that is indexed where it was said.
 */
function isOwnHistoryTool(tool: string): boolean {
  return tool.startsWith("history_");
}

/** The searchable text of one part, or undefined when the part is not searchable. */
export function partSearchText(part: HistoryPart, visibility: ToolVisibility): { type: HitType; text: string; tool?: string } | undefined {
  switch (part.kind) {
    case "text":
      if (part.ignored || !part.text) return undefined;
      return { type: "text", text: part.text };
    case "reasoning":
      return part.text ? { type: "reasoning", text: part.text } : undefined;
    case "tool": {
      if (isOwnHistoryTool(part.tool)) return undefined;
      const text = toolPartText(part, visibility);
      return text ? { type: "tool", text, tool: part.tool } : undefined;
    }
    case "subtask":
      return { type: "text", text: `${part.description}\n${part.prompt}` };
    default:
      return undefined;
  }
}

/** Where to end a chunk that starts at `start`: near the chunk size, at a break, never inside a surrogate pair. */
export function chunkEnd(text: string, start: number, size: number): number {
  if (text.length - start <= size) return text.length;
  const hard = start + size;
  const newline = text.lastIndexOf("\n", hard);
  if (newline > hard - CUT_WINDOW && newline > start) return newline + 1;
  const space = text.lastIndexOf(" ", hard);
  if (space > hard - CUT_WINDOW && space > start) return space + 1;
  const code = text.charCodeAt(hard - 1);
  return code >= 0xd800 && code <= 0xdbff ? hard - 1 : hard;
}

/** chunkEnd over the concatenation of `pieces` (length `total`), reading only the cut window. */
function chunkEndOfPieces(pieces: readonly string[], total: number, start: number, size: number): number {
  if (total - start <= size) return total;
  const hard = start + size;
  const lo = Math.max(start, hard - CUT_WINDOW);
  const window = sliceOfPieces(pieces, lo, hard + 1);
  const newline = lo + window.lastIndexOf("\n");
  if (newline >= lo && newline > hard - CUT_WINDOW && newline > start) return newline + 1;
  const space = lo + window.lastIndexOf(" ");
  if (space >= lo && space > hard - CUT_WINDOW && space > start) return space + 1;
  const code = window.charCodeAt(hard - 1 - lo);
  return code >= 0xd800 && code <= 0xdbff ? hard - 1 : hard;
}

/** A document before its text is made: the chunk's range over its part's text pieces. */
export interface DocPieces {
  partId: string;
  type: HitType;
  tool?: string;
  start: number;
  end: number;
  /** The whole part's text, in pieces (shared by the part's chunks). */
  pieces: string[];
  /** True when the chunk is the whole part. */
  whole: boolean;
  /** Code units at the chunk's start that are the tool call's input (0: none). */
  input: number;
}

/** One part's searchable text, in pieces (a tool call's signature and output), before chunking. */
export interface PartPieces {
  partId: string;
  type: HitType;
  tool?: string;
  /** Pieces whose concatenation is the part's searchable text; no term spans two of them. */
  pieces: string[];
  /** Total length (code units) of the pieces. */
  total: number;
  /** Length of the tool call's input, the first piece (0: not a tool call, or its input hidden). */
  input: number;
}

/** The part's searchable text as pieces, or undefined when it has none. */
export function partPieces(part: HistoryPart, visibility: ToolVisibility): PartPieces | undefined {
  let found: PartPieces;
  if (part.kind === "tool") {
    const pieces = partTextPieces(part, visibility);
    const input = pieces.length > 0 && visibility.input(part.tool) ? pieces[0]!.length : 0;
    found = { partId: part.id, type: "tool", tool: part.tool, pieces, total: 0, input };
  } else {
    const searchable = partSearchText(part, visibility);
    return searchable && searchablePieces(part.id, searchable);
  }
  for (const piece of found.pieces) found.total += piece.length;
  return found.total === 0 ? undefined : found;
}

/** A part's searchable text (partSearchText, not a tool call's) as its one piece; undefined when empty. */
export function searchablePieces(partId: string, searchable: { type: HitType; text: string }): PartPieces | undefined {
  const { type, text } = searchable;
  return text.length === 0 ? undefined : { partId, type, pieces: [text], total: text.length, input: 0 };
}

/** How many documents (chunks of `chunkChars`) a part's text makes. */
export function chunkCount(part: Pick<PartPieces, "pieces" | "total">, chunkChars: number): number {
  if (part.total <= chunkChars) return 1;
  let count = 0;
  for (let start = 0; start < part.total; start = chunkEndOfPieces(part.pieces, part.total, start, chunkChars)) count++;
  return count;
}

/** How many documents (chunks) a text of one piece makes. */
export function textChunkCount(text: string, chunkChars: number): number {
  return text.length <= chunkChars ? 1 : chunkCount({ pieces: [text], total: text.length }, chunkChars);
}

/** The documents (chunks) of one part, as ranges over its pieces. */
export function partChunks(part: PartPieces, chunkChars: number): DocPieces[] {
  const docs: DocPieces[] = [];
  const { pieces, total } = part;
  let start = 0;
  while (start < total) {
    const end = chunkEndOfPieces(pieces, total, start, chunkChars);
    const input = Math.max(0, Math.min(end, part.input) - start);
    const doc: DocPieces = { partId: part.partId, type: part.type, start, end, pieces, whole: start === 0 && end === total, input };
    if (part.tool !== undefined) doc.tool = part.tool;
    docs.push(doc);
    start = end;
  }
  return docs;
}

/** Every searchable document of a message, as ranges over text pieces (nothing joined yet). */
export function messageDocPieces(message: HistoryMessage, visibility: ToolVisibility, chunkChars: number): DocPieces[] {
  const docs: DocPieces[] = [];
  for (const part of message.parts) {
    const found = partPieces(part, visibility);
    if (found) for (const doc of partChunks(found, chunkChars)) docs.push(doc);
  }
  return docs;
}

/** The chunk's text: a slice of one piece when it lies inside one (no copy), else joined. */
export function docText(doc: DocPieces): string {
  if (doc.whole && doc.pieces.length === 1) return doc.pieces[0]!;
  return doc.whole ? doc.pieces.join("") : sliceOfPieces(doc.pieces, doc.start, doc.end);
}

/**
 * Every searchable document of a message. A long part is cut from its pieces (a tool call's
 * signature and output), so a 200 KB output is sliced, never copied whole.
 */
export function messageDocs(message: HistoryMessage, visibility: ToolVisibility, chunkChars: number): DocInput[] {
  // One shape for every document (tool undefined when absent): the index's insert path reads them.
  return messageDocPieces(message, visibility, chunkChars).map(
    (doc): DocInput => ({ partId: doc.partId, type: doc.type, tool: doc.tool, start: doc.start, end: doc.end, text: docText(doc), input: doc.input }),
  );
}

/** Rough size of what messageDocs would produce, without building tool texts. */
export function messageTextSize(message: HistoryMessage): number {
  let size = 0;
  for (const part of message.parts) {
    if (part.kind === "text" || part.kind === "reasoning") size += part.text.length;
    else if (part.kind === "tool") size += (part.output?.length ?? 0) + (part.error?.length ?? 0) + 64;
    else if (part.kind === "subtask") size += part.prompt.length + part.description.length;
  }
  return size;
}

/** Between a tool call's signature and its output in the call's searchable text. */
export const CALL_OUTPUT_SEPARATOR = "\n---\n";

/**
 * The part's searchable text as pieces whose concatenation is partSearchText's text: a chunk of a
 * long tool output can then be cut without first joining its call signature to the whole output.
 */
export function partTextPieces(part: HistoryPart, visibility: ToolVisibility): string[] {
  if (part.kind !== "tool") {
    const searchable = partSearchText(part, visibility);
    return searchable ? [searchable.text] : [];
  }
  if (isOwnHistoryTool(part.tool)) return [];
  const pieces: string[] = [];
  if (visibility.input(part.tool)) pieces.push(toolCallSignature(part));
  if (visibility.output(part.tool)) {
    const result = toolResultText(part);
    if (result) {
      if (pieces.length > 0) pieces.push(CALL_OUTPUT_SEPARATOR);
      pieces.push(result);
    }
  }
  return pieces;
}

/** Code units [start, end) of the concatenation of `pieces`. */
export function sliceOfPieces(pieces: readonly string[], start: number, end: number): string {
  // A range inside one piece stays that piece's substring: concatenated (even to ""), it would be
  // a rope that every search copies out again before matching it.
  let out: string | undefined;
  let offset = 0;
  for (const piece of pieces) {
    const from = Math.max(start, offset);
    const to = Math.min(end, offset + piece.length);
    if (from < to) {
      const cut = from === offset && to === offset + piece.length ? piece : piece.slice(from - offset, to - offset);
      out = out === undefined ? cut : out + cut;
    }
    offset += piece.length;
    if (offset >= end) break;
  }
  return out ?? "";
}
