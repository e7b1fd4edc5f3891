// The store's projection kept current in the background, and the candidate finder the search
// service asks. A pass lists every session of the store, compares each one's change stamp with
// the one it was projected at, and projects again the sessions that changed (read, cut into
// documents, counted, written in batches), newest first; sessions gone from the store are
// dropped. Passes repeat every few seconds; host events mark a session changed at once. All of
// it yields between slices at background priority, so it never runs while a search does.
// Answers never wait for it: a session not projected as it is now is one the search reads.

import { existsSync } from "node:fs";
import type { ToolVisibility } from "../../history/tool-visibility.ts";
import type { SessionInfo } from "../../history/types.ts";
import {
  type CandidateFinder,
  editDistance,
  isLetters,
  isNearer,
  maxEdits,
  type Narrowed,
  type NearestTerm,
  type QueryTerm,
  sessionTerms,
} from "../../search/api.ts";
import type { Log } from "../log.ts";
import type { ProjectionFeed } from "./feed.ts";
import {
  cacheDir,
  isCorruption,
  openProjection,
  POSTING_BATCH,
  projectionPath,
  quarantine,
  diskIdentity,
  type ProjectedSession,
  type ProjectionDb,
} from "./projection-db.ts";

export interface ProjectionOptions {
  feed: ProjectionFeed;
  /** projection.enable of the config of the moment. */
  enabled(): boolean;
  visibility(): ToolVisibility;
  /** Names the visibility (show_tool_input / show_tool_output): a projection is built for one. */
  visibilityKey(): string;
  /** Between pieces of background work: a promise when a turn of the event loop is due. */
  pause(): Promise<void> | undefined;
  log: Log;
  /** Where projection files go (default: $XDG_CACHE_HOME/opencode-engram). */
  dir?: string;
  /** Pause between passes (default PASS_INTERVAL_MS). */
  intervalMs?: number;
  /** Opens the projection file (default openProjection; tests give an in-memory one). */
  open?: typeof openProjection;
  /** False when another thread runs the passes (build-thread.ts): this one only reads the file it writes. */
  passes?: boolean;
}

export interface ProjectionStatus {
  state: "off" | "waiting" | "building" | "current" | "unavailable";
  reason?: string;
  file?: string;
  /** Sessions projected as they are now, of `total` in the store at the last listing. */
  projected: number;
  total: number;
  /** When the last pass that found every session current ended (epoch ms). */
  current?: number;
}

const PASS_INTERVAL_MS = 10_000;
/** Change stamps a search checks between turns of the event loop. */
const STAMPS_PER_TURN = 400;

type Row = ProjectedSession & { complete: boolean };

export class StoreProjection implements CandidateFinder {
  private db: ProjectionDb | undefined;
  private rows = new Map<string, Row>();
  private builtFor: string | undefined;
  /** The open projection file's device and inode. */
  private fileIdentity = "";
  private probe: string | undefined;
  private running: Promise<void> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private wake: (() => void) | undefined;
  private closed = false;
  /** Sessions a host event said changed since they were last projected. */
  private readonly changed = new Set<string>();
  private readonly state: ProjectionStatus = { state: "waiting", projected: 0, total: 0 };

  constructor(private readonly options: ProjectionOptions) {}

  status(): ProjectionStatus {
    const status = { ...this.state };
    if (!this.options.enabled()) status.state = "off";
    status.projected = [...this.rows.values()].filter((row) => row.complete && !this.changed.has(row.id)).length;
    return status;
  }

  /** A session the host named: the probe that opens the store, and the start of the background passes. */
  observe(sessionId: string): void {
    if (this.closed || sessionId === "" || !this.options.enabled()) return;
    this.probe ??= sessionId;
    if (this.options.passes === false) return;
    this.running ??= this.run().finally(() => (this.running = undefined));
  }

  /** Host event: the session changed (or was removed); searches read it until it is projected again. */
  markDirty(sessionId: string): void {
    this.changed.add(sessionId);
    this.observe(sessionId);
    this.wake?.();
  }

  forget(sessionId: string): void {
    this.markDirty(sessionId);
  }

  /** Runs passes until one finds every session current (reindex, tests, the bench); `probe` opens the store if none was named yet. */
  async untilCurrent(probe?: string): Promise<ProjectionStatus> {
    this.probe ??= probe;
    while (!this.closed) {
      await this.pass();
      if (this.state.state === "current" || this.state.state === "unavailable") break;
    }
    return this.status();
  }

  /**
   * Opens the projection file as it is, with no pass (a one-shot process such as the CLI must not
   * spend minutes building one): false when there is none yet, and searches read every session.
   */
  async useExisting(probe: string): Promise<boolean> {
    if (this.closed || !this.options.enabled()) return false;
    this.probe ??= probe;
    const store = await this.options.feed.storePath(probe);
    if (!store || !existsSync(projectionPath(store, this.options.dir ?? cacheDir()))) return false;
    return (await this.opened()) !== undefined;
  }

  /**
   * The file as another thread left it (build-thread.ts): opened again when it was made anew, its
   * session rows read again; false when there is none yet. It never builds.
   */
  async reread(probe: string): Promise<boolean> {
    const db = this.db;
    if (!db || this.builtFor !== this.options.visibilityKey() || diskIdentity(db.path) !== this.fileIdentity) return this.useExisting(probe);
    this.rows = db.sessions();
    return true;
  }

  /** The change stamp the session is projected whole at, if it is. */
  projectedAt(sessionId: string): string | undefined {
    const row = this.rows.get(sessionId);
    return row?.complete ? row.stamp : undefined;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.wake?.();
    this.db?.close();
    this.db = undefined;
  }

  async narrow(scope: readonly SessionInfo[], terms: readonly QueryTerm[], mustRead: ReadonlySet<string>): Promise<Narrowed | undefined> {
    for (const id of mustRead) this.observe(id);
    const db = this.db;
    if (!db || !this.options.enabled() || this.builtFor !== this.options.visibilityKey()) return undefined;
    try {
      const holding = new Set<string>();
      for (const term of terms) for (const posting of db.postings(term.token)) holding.add(posting.id);
      const narrowed: Narrowed = { search: [], rest: { ids: [], docs: 0, length: 0 } };
      let checked = 0;
      for (const session of scope) {
        const row = this.rows.get(session.id);
        const listed = row?.complete && row.updated === (session.updated ?? 0) && !this.changed.has(session.id) && !mustRead.has(session.id);
        if (!row || !listed || holding.has(session.id)) {
          narrowed.search.push(session);
          continue;
        }
        // A session left unread must be as projected: its stamp now (two index lookups) says so,
        // whoever wrote the store since the last pass. A turn of the event loop every few hundred.
        if (++checked % STAMPS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
        if ((await this.options.feed.stamp(session.id)) !== row.stamp) {
          narrowed.search.push(session);
          continue;
        }
        narrowed.rest.ids.push(session.id);
        narrowed.rest.docs += row.docs;
        narrowed.rest.length += row.length;
      }
      return narrowed;
    } catch (error) {
      this.failed(error);
      return undefined;
    }
  }

  async nearest(words: readonly string[], sessionIds: readonly string[]): Promise<Map<string, NearestTerm[]>> {
    const out = new Map<string, NearestTerm[]>();
    const db = this.db;
    if (!db) return out;
    const wanted = new Set(sessionIds);
    try {
      for (const word of words) {
        const max = maxEdits(word.length);
        if (max === 0) continue;
        // Each session offers its own nearest term, as its search would (typos.ts's isNearer).
        const best = new Map<string, NearestTerm>();
        for (const term of db.vocabulary(word[0]!, word.length - max, word.length + max)) {
          if (!isLetters(term)) continue;
          const distance = editDistance(word, term, max);
          if (distance === 0 || distance > max) continue;
          for (const posting of db.postings(term)) {
            if (!wanted.has(posting.id)) continue;
            const candidate = { term, distance, df: posting.df };
            if (isNearer(candidate, best.get(posting.id))) best.set(posting.id, candidate);
          }
        }
        out.set(word, [...best.values()]);
      }
    } catch (error) {
      this.failed(error);
    }
    return out;
  }

  private async run(): Promise<void> {
    while (!this.closed && this.options.enabled()) {
      await this.pass();
      if (this.state.state === "unavailable" && !this.db) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.timer = setTimeout(resolve, this.options.intervalMs ?? PASS_INTERVAL_MS);
        (this.timer as { unref?: () => void }).unref?.();
      });
      this.wake = undefined;
    }
  }

  /** One pass over the store; failures are logged and end the pass, never thrown. */
  private async pass(): Promise<void> {
    try {
      const db = await this.opened();
      if (!db) return;
      await this.update(db);
    } catch (error) {
      this.failed(error);
    }
  }

  private async opened(): Promise<ProjectionDb | undefined> {
    const key = this.options.visibilityKey();
    // A file deleted under an open handle lives on unseen: build a new one where it was.
    if (this.db && this.builtFor === key && diskIdentity(this.db.path) === this.fileIdentity) return this.db;
    this.db?.close();
    this.db = undefined;
    const probe = this.probe;
    if (probe === undefined) return undefined;
    const store = await this.options.feed.storePath(probe);
    if (!store) return this.unavailable("the host's store cannot be read directly (store.sqlite_fast_path off, or no SQLite driver)");
    const file = projectionPath(store, this.options.dir ?? cacheDir());
    const opened = await (this.options.open ?? openProjection)(file, { store, storeFile: diskIdentity(store), visibility: key });
    if ("unavailable" in opened) return this.unavailable(opened.unavailable);
    if (opened.rebuilt) this.options.log("info", `projection ${file} rebuilt: ${opened.rebuilt}`);
    this.db = opened.db;
    this.builtFor = key;
    this.fileIdentity = diskIdentity(file);
    this.rows = opened.db.sessions();
    Object.assign(this.state, { state: "building", file });
    delete this.state.reason;
    return opened.db;
  }

  private unavailable(reason: string): undefined {
    if (this.state.reason !== reason) this.options.log("info", `projection unavailable: ${reason}; many-session searches read every session`);
    Object.assign(this.state, { state: "unavailable", reason });
    return undefined;
  }

  private async update(db: ProjectionDb): Promise<void> {
    const listed = await this.options.feed.sessions(this.probe!);
    this.state.total = listed.length;
    const seen = new Set<string>();
    let stale = 0;
    listed.sort((a, b) => (b.updated ?? 0) - (a.updated ?? 0));
    for (const session of listed) {
      seen.add(session.id);
      if (this.closed || db !== this.db) return;
      await this.options.pause();
      // Cleared before the stamp is read: a change after it is either in the stamp or flagged again.
      const flagged = this.changed.delete(session.id);
      const stamp = await this.options.feed.stamp(session.id);
      if (stamp === undefined) {
        this.unavailable("the store gives no change stamps");
        return;
      }
      const row = this.rows.get(session.id);
      if (row?.complete && row.stamp === stamp && row.updated === (session.updated ?? 0)) continue;
      stale++;
      Object.assign(this.state, { state: "building" });
      try {
        await this.project(db, session, stamp);
      } catch (error) {
        if (flagged) this.changed.add(session.id);
        throw error;
      }
    }
    for (const id of [...this.rows.keys()]) {
      if (seen.has(id)) continue;
      while (!db.clearSome(id, 0)) await this.options.pause();
      db.drop(id);
      this.rows.delete(id);
    }
    if (stale === 0 && this.changed.size === 0) {
      // Written when it becomes current, not on every idle pass (each write is a WAL frame).
      if (this.state.state !== "current") db.setMeta("current_at", String(Date.now()));
      this.state.state = "current";
      this.state.current = Date.now();
    }
  }

  private async project(db: ProjectionDb, session: SessionInfo, stamp: string): Promise<void> {
    const messages = await this.options.feed.messages(session.id, { pause: () => this.options.pause() });
    const counted = await sessionTerms(session.id, messages, this.options.visibility());
    const updated = session.updated ?? 0;
    this.rows.set(session.id, { id: session.id, updated, stamp: "", docs: 0, length: 0, complete: false });
    while (!db.clearSome(session.id, updated)) await this.options.pause();
    // In key order: each batch then writes neighbouring pages of the term-keyed tree.
    const postings = [...counted.terms].sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
    for (let at = 0; at < postings.length; at += POSTING_BATCH) {
      db.addPostings(session.id, postings.slice(at, at + POSTING_BATCH));
      await this.options.pause();
    }
    const projected = { id: session.id, updated, stamp, docs: counted.docs, length: counted.length };
    db.complete(projected);
    this.rows.set(session.id, { ...projected, complete: true });
  }

  /** A failure: a corrupt file is quarantined and built again on the next pass; others are logged. */
  private failed(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    if (this.db && isCorruption(error)) {
      const file = this.db.path;
      this.db.close();
      this.db = undefined;
      this.rows = new Map();
      let aside = "";
      try {
        aside = `; quarantined as ${quarantine(file)}`;
      } catch {
        // already gone
      }
      this.options.log("warn", `projection ${file} is corrupt (${message})${aside}; building it again`);
      return;
    }
    this.options.log("warn", `projection pass failed: ${message}`);
  }
}
