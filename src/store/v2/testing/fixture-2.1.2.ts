// The session_message rows the real OpenCode 2.1.2 wrote (fixtures/README.md), as the reader hands
// them to the core.
import { readFileSync } from "node:fs";
import type { HistoryMessage } from "../../../history/types.ts";
import { mapV2Message } from "../map.ts";
import { messageRow, type SessionMessageRow } from "../sqlite-reader.ts";

/** A row of the fixture: the session_message columns, its session's id with them. */
export type StoredRow = SessionMessageRow & { session_id: string };

export const STORED_ROWS = JSON.parse(readFileSync(new URL("./fixtures/opencode-2.1.2-compactions.json", import.meta.url), "utf8")) as StoredRow[];

/** Four turns, a manual compaction, then three automatic ones (one mid-turn). */
export const MAIN_SESSION = "ses_dad92504cffeCJibHktBgEqIXV";
/** A long first prompt, then an automatic compaction before the second. */
export const AUTO_FIRST_SESSION = "ses_dad924c86ffebzIIT9lBnLidX3";

/** The session's messages from rows with `seq` below `beforeSeq`. */
export function storedMessages(sessionId: string, beforeSeq = Infinity): HistoryMessage[] {
  return STORED_ROWS.filter((row) => row.session_id === sessionId && row.seq < beforeSeq)
    .map((row) => mapV2Message(messageRow(row), sessionId))
    .filter((message) => message !== undefined);
}

export function storedRowAt(sessionId: string, seq: number): StoredRow {
  const row = STORED_ROWS.find((stored) => stored.session_id === sessionId && stored.seq === seq);
  if (!row) throw new Error(`no row ${seq} in ${sessionId}`);
  return row;
}
