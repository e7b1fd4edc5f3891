// One whole session in the document shape `opencode export` writes and `opencode import` reads:
// `{info, messages}`, read-only from the store. The text is the store's own, parsed and written
// back unchanged.
// OpenCode 1.x: each message is `{info, parts}`, the `message`/`part` rows' `data` with their ids
// put back; OpenCode 2: each message is its `session_message` row's `data` with `id` and `type` put
// back, in `seq` order. The info is built from the session row as each host builds it. Sources:
// docs/search-notes.md, "OpenCode 2 sources".

import type { RawMessage } from "./reader.ts";
import { openReadOnly } from "./sqlite.ts";
import type { Store } from "./store-file.ts";
import type { V2MessageRow } from "./v2/map.ts";

type Row = Record<string, unknown>;

export interface ExportDocument {
  info: Row;
  messages: unknown[];
}

/** A JSON column's value: parsed text, else as stored (bun:sqlite gives text). */
function json(value: unknown): unknown {
  if (typeof value !== "string") return value ?? undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

const present = (value: unknown): boolean => value !== null && value !== undefined;
const orUndefined = <T>(value: T | null | undefined): T | undefined => (value === null ? undefined : value);

function tokens(row: Row): Row | undefined {
  if (!("tokens_input" in row)) return undefined;
  const n = (key: string) => (typeof row[key] === "number" ? row[key] : 0);
  return {
    input: n("tokens_input"),
    output: n("tokens_output"),
    reasoning: n("tokens_reasoning"),
    cache: { read: n("tokens_cache_read"), write: n("tokens_cache_write") },
  };
}

/** OpenCode 1.x's Session.Info from its `session` row (the columns an older store lacks stay out). */
export function v1SessionInfo(row: Row): Row {
  const summary =
    present(row.summary_additions) || present(row.summary_deletions) || present(row.summary_files)
      ? { additions: row.summary_additions ?? 0, deletions: row.summary_deletions ?? 0, files: row.summary_files ?? 0, diffs: json(row.summary_diffs) }
      : undefined;
  const revert = json(row.revert) as Row | undefined;
  return {
    id: row.id,
    slug: row.slug,
    projectID: row.project_id,
    workspaceID: orUndefined(row.workspace_id),
    directory: row.directory,
    path: orUndefined(row.path),
    parentID: orUndefined(row.parent_id),
    title: row.title,
    agent: orUndefined(row.agent),
    model: json(row.model),
    version: row.version,
    summary,
    cost: orUndefined(row.cost),
    tokens: tokens(row),
    share: typeof row.share_url === "string" && row.share_url ? { url: row.share_url } : undefined,
    metadata: json(row.metadata),
    revert: revert ? { messageID: revert.messageID, partID: revert.partID, snapshot: revert.snapshot, diff: revert.diff } : undefined,
    permission: json(row.permission),
    time: {
      created: row.time_created,
      updated: row.time_updated,
      compacting: orUndefined(row.time_compacting),
      archived: orUndefined(row.time_archived),
    },
  };
}

/** OpenCode 2's Session.Info from its `session_v2` row. */
export function v2SessionInfo(row: Row): Row {
  const model = json(row.model) as Row | undefined;
  return {
    id: row.id,
    parentID: orUndefined(row.parent_id),
    projectID: row.project_id,
    agent: orUndefined(row.agent),
    model: model ? { id: model.id, providerID: model.providerID, variant: model.variant ?? "default" } : undefined,
    cost: typeof row.cost === "number" ? row.cost : 0,
    tokens: tokens(row) ?? { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
    // 2.1.2's columns: how the session's last run ended, and when it went idle.
    outcome: orUndefined(row.idle_outcome),
    time: { created: row.time_created, updated: row.time_updated, idle: orUndefined(row.time_idle), archived: orUndefined(row.time_archived) },
    title: row.title ?? "",
    location: { directory: row.directory, workspaceID: orUndefined(row.workspace_id) },
    subpath: orUndefined(row.path) || undefined,
    revert: json(row.revert),
  };
}

/** An object with `first` keys ahead of the rest, as the host writes them. */
function idsFirst(value: unknown, first: Row): unknown {
  return value !== null && typeof value === "object" ? { ...first, ...(value as Row) } : value;
}

function v1Message(raw: RawMessage): unknown {
  const info = raw.info as Row;
  return {
    info: idsFirst(info, { id: info.id, sessionID: info.sessionID }),
    parts: raw.parts.map((part) => idsFirst(part, { id: (part as Row).id, sessionID: (part as Row).sessionID, messageID: (part as Row).messageID })),
  };
}

function v2Message(row: V2MessageRow): unknown {
  return row.data ? { id: row.id, type: row.type, ...row.data } : undefined;
}

/** The session's whole document, or undefined when the store has no such session. */
export async function exportDocument(store: Store, sessionId: string): Promise<ExportDocument | undefined> {
  const v2 = store.generation === "opencode-2";
  const db = await openReadOnly(store.path);
  if (!db) return undefined;
  let row: Row | null;
  try {
    row = db.query(`SELECT * FROM ${v2 ? "session_v2" : "session"} WHERE id = ?`).get(sessionId) as Row | null;
  } finally {
    db.close();
  }
  if (!row) return undefined;
  const raw = await store.reader.readAll(sessionId);
  const messages = v2 ? (raw as V2MessageRow[]).map(v2Message) : (raw as RawMessage[]).map(v1Message);
  return { info: v2 ? v2SessionInfo(row) : v1SessionInfo(row), messages: messages.filter((message) => message !== undefined) };
}
