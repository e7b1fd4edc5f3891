// A store shaped like OpenCode 2's, for tests run in the host's Bun (bun:sqlite). The DDL is ours,
// written from these facts (anomalyco/opencode):
// - packages/core/src/database/migration/20260804233008_loose_psylocke.ts@7656aeb66d511ca6c2ab40b8f497a0a36d44579b:
//   `session_v2` (id, project_id NOT NULL, parent_id, slug NOT NULL, directory NOT NULL, title
//   nullable, version NOT NULL, agent, model, time_created/time_updated NOT NULL, … time_suspended); in
//   a store the real 2.1.2 made (PRAGMA table_info) it has 36 columns, time_idle, time_viewed,
//   idle_outcome and resume_attempts (DEFAULT 0 NOT NULL) among them, as here; `session_message` (id PK, session_id, type, seq, time_created, time_updated, data) with a unique
//   index on (session_id, seq), and `kv` (key PK, value, time_created, time_updated).
// - packages/core/src/session/projector.ts@008d57153952804fea8d6eef1cf3baf4402248cb: a message row's
//   `seq` is the durable event's sequence number in the session's event sequence; rows are updated
//   in place (same id and seq) as a message streams. The 1.18.33 bundle's Timestamps helper sets
//   time_updated on every update ($onUpdate(() => Date.now())).
// - The one-shot 1.x importer (anomalyco/opencode's v1-migration): copies `session` rows into
//   `session_v2` under the same ids, keeps 1.x message ids, writes the session's event_sequence
//   watermark, and records its state in kv['migration.v1-v2'] = {phase: "sessions", cursor} |
//   {phase: "completed"}; it never writes the 1.x tables.
// The 1.x tables (session, message, part, event, event_sequence, project) follow a store the real
// OpenCode 1.18.33 created (PRAGMA table_info on it).

type Row = Record<string, unknown>;

interface WritableDb {
  run(sql: string, ...params: unknown[]): void;
  query(sql: string): { get(...params: unknown[]): unknown; all(...params: unknown[]): unknown[] };
  exec(sql: string): void;
  close(): void;
}

const PROJECT = `CREATE TABLE IF NOT EXISTS project (id text PRIMARY KEY, worktree text NOT NULL, vcs text, name text, icon_url text,
  icon_url_override text, icon_color text, time_created integer NOT NULL, time_updated integer NOT NULL, time_initialized integer,
  sandboxes text NOT NULL, commands text)`;
const EVENTS = `CREATE TABLE IF NOT EXISTS event_sequence (aggregate_id text PRIMARY KEY, seq integer NOT NULL, owner_id text);
  CREATE TABLE IF NOT EXISTS event (id text PRIMARY KEY, aggregate_id text NOT NULL, seq integer NOT NULL, type text NOT NULL, data text NOT NULL);
  CREATE UNIQUE INDEX IF NOT EXISTS event_aggregate_seq_idx ON event (aggregate_id, seq)`;
const V1_TABLES = `CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, workspace_id text, parent_id text, slug text NOT NULL,
  directory text NOT NULL, path text, title text NOT NULL, version text NOT NULL, share_url text, summary_additions integer,
  summary_deletions integer, summary_files integer, summary_diffs text, metadata text, cost real DEFAULT 0 NOT NULL,
  tokens_input integer DEFAULT 0 NOT NULL, tokens_output integer DEFAULT 0 NOT NULL, tokens_reasoning integer DEFAULT 0 NOT NULL,
  tokens_cache_read integer DEFAULT 0 NOT NULL, tokens_cache_write integer DEFAULT 0 NOT NULL, revert text, permission text, agent text,
  model text, time_created integer NOT NULL, time_updated integer NOT NULL, time_compacting integer, time_archived integer);
  CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
  CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id);
  CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL,
  time_updated integer NOT NULL, data text NOT NULL);
  CREATE INDEX part_message_id_id_idx ON part (message_id, id);
  CREATE INDEX part_session_idx ON part (session_id)`;
const V2_TABLES = `CREATE TABLE kv (key text PRIMARY KEY, value text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL);
  CREATE TABLE session_v2 (id text PRIMARY KEY, project_id text NOT NULL, workspace_id text, parent_id text, fork_session_id text,
  fork_boundary text, slug text NOT NULL, directory text NOT NULL, path text, title text, version text NOT NULL, share_url text,
  summary_additions integer, summary_deletions integer, summary_files integer, summary_diffs text, metadata text, cost real DEFAULT 0 NOT NULL,
  tokens_input integer DEFAULT 0 NOT NULL, tokens_output integer DEFAULT 0 NOT NULL, tokens_reasoning integer DEFAULT 0 NOT NULL,
  tokens_cache_read integer DEFAULT 0 NOT NULL, tokens_cache_write integer DEFAULT 0 NOT NULL, revert text, permission text, agent text,
  model text, time_created integer NOT NULL, time_updated integer NOT NULL, time_idle integer, time_viewed integer, idle_outcome text,
  time_compacting integer, time_archived integer, time_suspended integer, resume_attempts integer DEFAULT 0 NOT NULL);
  CREATE INDEX session_v2_project_idx ON session_v2 (project_id);
  CREATE TABLE session_message (id text PRIMARY KEY, session_id text NOT NULL, type text NOT NULL, seq integer NOT NULL,
  time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
  CREATE UNIQUE INDEX session_message_session_seq_idx ON session_message (session_id, seq);
  CREATE INDEX session_message_session_type_seq_idx ON session_message (session_id, type, seq)`;
/** What OpenCode 1.18.33 creates beside its own tables: an empty session_message keyed to `session`. */
const V1_SESSION_MESSAGE = `CREATE TABLE session_message (id text PRIMARY KEY, session_id text NOT NULL, type text NOT NULL, seq integer NOT NULL,
  time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL)`;

export type StoreShape = "opencode-2" | "opencode-2-with-1x" | "opencode-1";

export interface V2Session {
  id: string;
  projectId: string;
  directory: string;
  title?: string | null;
  parentId?: string;
  version?: string;
  agent?: string;
  created?: number;
  updated?: number;
}

/** Writes a store of the given shape; message writes advance the session's event sequence as the host's do. */
export class V2StoreBuilder {
  private clock = 1_900_000_000_000;

  private constructor(private readonly db: WritableDb) {}

  static async create(path: string, shape: StoreShape): Promise<V2StoreBuilder> {
    const specifier = "bun:sqlite";
    const module = (await import(/* @vite-ignore */ specifier)) as { Database: new (path: string, options: object) => WritableDb };
    const db = new module.Database(path, { create: true });
    db.exec(`${PROJECT}; ${EVENTS}`);
    if (shape !== "opencode-2") db.exec(V1_TABLES);
    db.exec(shape === "opencode-1" ? V1_SESSION_MESSAGE : V2_TABLES);
    return new V2StoreBuilder(db);
  }

  /** Milliseconds that only move forward, like the host's clock between writes. */
  tick(): number {
    return ++this.clock;
  }

  /** The session's next durable event, journalled as the host's event service does (packages/core/src/event/index.ts). */
  private nextSeq(sessionId: string, type: string): number {
    const row = this.db.query("SELECT seq FROM event_sequence WHERE aggregate_id = ?").get(sessionId) as { seq: number } | null;
    const seq = (row?.seq ?? -1) + 1;
    this.db.run("INSERT INTO event_sequence (aggregate_id, seq) VALUES (?1, ?2) ON CONFLICT (aggregate_id) DO UPDATE SET seq = ?2", sessionId, seq);
    this.db.run("INSERT INTO event (id, aggregate_id, seq, type, data) VALUES (?, ?, ?, ?, '{}')", `evt_${this.tick().toString(36)}`, sessionId, seq, type);
    return seq;
  }

  session(session: V2Session): void {
    const now = this.tick();
    this.db.run(
      "INSERT OR IGNORE INTO project (id, worktree, time_created, time_updated, sandboxes) VALUES (?, ?, ?, ?, '[]')",
      session.projectId,
      session.directory,
      now,
      now,
    );
    this.db.run(
      "INSERT INTO session_v2 (id, project_id, parent_id, slug, directory, title, version, agent, time_created, time_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      session.id,
      session.projectId,
      session.parentId ?? null,
      session.id.slice(4),
      session.directory,
      session.title === undefined ? "Untitled" : session.title,
      session.version ?? "2.0.30",
      session.agent ?? null,
      session.created ?? now,
      session.updated ?? now,
    );
  }

  /** Appends a message row at the session's next event sequence number; returns its id. */
  message(sessionId: string, type: string, data: Row, id?: string): string {
    const seq = this.nextSeq(sessionId, "session.next.message.created.1");
    const now = this.tick();
    const messageId = id ?? `msg_${now.toString(36)}${String(seq).padStart(4, "0")}`;
    this.db.run(
      "INSERT INTO session_message (id, session_id, type, seq, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?, ?)",
      messageId,
      sessionId,
      type,
      seq,
      now,
      now,
      JSON.stringify({ time: { created: now }, ...data }),
    );
    return messageId;
  }

  /** Rewrites a row in place (a streaming message), as a later durable event does. */
  update(sessionId: string, messageId: string, data: Row): void {
    this.nextSeq(sessionId, "session.next.message.updated.1");
    const row = this.db.query("SELECT data FROM session_message WHERE id = ?").get(messageId) as { data: string };
    const merged = { ...(JSON.parse(row.data) as Row), ...data };
    this.db.run("UPDATE session_message SET data = ?, time_updated = ? WHERE id = ?", JSON.stringify(merged), this.tick(), messageId);
  }

  /** Removes rows (a committed revert). */
  remove(sessionId: string, messageIds: string[]): void {
    this.nextSeq(sessionId, "session.next.revert.committed.1");
    for (const id of messageIds) this.db.run("DELETE FROM session_message WHERE id = ?", id);
  }

  /** A 1.x session with one user message of `text` in the frozen 1.x tables. */
  legacySession(id: string, directory: string, text: string): void {
    const now = this.tick();
    this.db.run(
      "INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'prj_legacy', ?, ?, ?, '1.18.33', ?, ?)",
      id,
      id.slice(4),
      directory,
      `legacy ${id}`,
      now,
      now,
    );
    const messageId = `msg_legacy${now.toString(36)}`;
    this.db.run(
      "INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)",
      messageId,
      id,
      now,
      now,
      JSON.stringify({ role: "user", time: { created: now } }),
    );
    this.db.run(
      "INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)",
      `prt_legacy${now.toString(36)}`,
      messageId,
      id,
      now,
      now,
      JSON.stringify({ type: "text", text }),
    );
  }

  /** A 1.x message row of its own id and time (its parts: legacyPart). */
  legacyMessage(sessionId: string, id: string, created: number, role: "user" | "assistant"): void {
    this.db.run(
      "INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)",
      id,
      sessionId,
      created,
      created,
      JSON.stringify({ role, time: { created } }),
    );
  }

  /** A 1.x part row of a text, in insertion (row) order whatever its id. */
  legacyPart(sessionId: string, messageId: string, id: string, text: string): void {
    const now = this.tick();
    this.db.run(
      "INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)",
      id,
      messageId,
      sessionId,
      now,
      now,
      JSON.stringify({ type: "text", text }),
    );
  }

  /** A 1.x durable event alone (`message.updated.1`, `message.part.removed.1`, …): the journal row and the sequence. */
  legacyEvent(sessionId: string, type: string): void {
    this.nextSeq(sessionId, type);
  }

  /** A 1.x part's text rewritten in place (same row), with the host's part event or, as a repeated import does, without. */
  legacyRewritePart(sessionId: string, partId: string, text: string, journalled: boolean): void {
    if (journalled) this.nextSeq(sessionId, "message.part.updated.1");
    this.db.run("UPDATE part SET data = ?, time_updated = ? WHERE id = ?", JSON.stringify({ type: "text", text }), this.tick(), partId);
  }

  /** Any statement: what the host's own paths do not (a session deleted whole, rows at chosen row ids). */
  run(sql: string, ...params: unknown[]): void {
    this.db.run(sql, ...params);
  }

  kv(key: string, value: unknown): void {
    const now = this.tick();
    this.db.run("INSERT OR REPLACE INTO kv (key, value, time_created, time_updated) VALUES (?, ?, ?, ?)", key, JSON.stringify(value), now, now);
  }

  close(): void {
    this.db.close();
  }
}
