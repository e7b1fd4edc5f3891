// The store's projection kept current in the background, and the candidate finder the search
// service asks. A pass lists every session of the store, compares each one's change stamp with
// the one it was projected at, and projects again the sessions that changed (read, cut into
// documents, counted into a buffer), newest first; the buffer is written as a segment when it
// holds SEGMENT_POSTINGS postings and at the end of the pass, and segments are merged as they
// pile up (segments.ts); sessions gone from the store are dropped. Passes repeat every few
// seconds; host events mark a session changed at once. All of it yields between slices at
// background priority, so it never runs while a search does, and outside a transaction it gives
// way while the host answers one of our tools (giveWay). Answers never wait for it: a
// session not published as it is now (buffered, changed, new) is one the search reads.

import { existsSync } from "node:fs";
import type { ToolVisibility } from "../history/tool-visibility.ts";
import type { SessionInfo } from "../history/types.ts";
import { type CandidateFinder, type Narrowed, type NearestTerm, type ProjectedSummary, type QueryTerm, sessionTerms } from "../search/api.ts";
import type { Log } from "../util/log.ts";
import { pacedPause } from "./build-pace.ts";
import type { ProjectionFeed } from "./feed.ts";
import { narrowScope, nearestTerms, summaryOf } from "./finder.ts";
import { cacheDir, isCorruption, openProjection, projectionPath, quarantine, diskIdentity, type ProjectionDb, type SegmentRow } from "./projection-db.ts";
import { Published, WATERMARK_KEY } from "./published.ts";
import { SegmentBuffer } from "./segment-buffer.ts";
import { inTransaction, mergeChoice, mergeSegments, writeSegment } from "./segments.ts";

export interface ProjectionOptions {
  feed: ProjectionFeed;
  /** projection.enable of the config of the moment. */
  enabled(): boolean;
  visibility(): ToolVisibility;
  /** Names the visibility (show_tool_input / show_tool_output): a projection is built for one. */
  visibilityKey(): string;
  /** Between pieces of background work: a promise when a turn of the event loop is due. */
  pause(): Promise<void> | undefined;
  /**
   * Before a slice where no transaction is open: a promise while the host's thread answers our
   * tools (build-pace.ts's GiveWay); none, never held.
   */
  giveWay?(): Promise<void> | undefined;
  log: Log;
  /** Where projection files go (default: $XDG_CACHE_HOME/opencode-engram). */
  dir?: string;
  /** Pause between passes (default PASS_INTERVAL_MS). */
  intervalMs?: number;
  /** Opens the projection file (default openProjection; tests give an in-memory one). */
  open?: typeof openProjection;
  /** A session is projected again by a background pass no sooner than this many times its last projection's time after it (default REPROJECT_SPACING). */
  reprojectSpacing?: number;
  /** Postings buffered before they are written as a segment (default SEGMENT_POSTINGS). */
  segmentPostings?: number;
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
/**
 * Postings (a term of a session) a segment is written at: on the heavy store about a hundred
 * sessions, a few MB of encoded postings and chunk tables while buffered.
 */
const SEGMENT_POSTINGS = 250_000;
/**
 * A background pass projects a session again no sooner than this many times as long after its
 * last projection ended as that projection took: a session written to all the time (the one an
 * agent works in; a 30 MB one takes seconds to count) costs the thread at most about a tenth of
 * its time, and searches read it from the store meanwhile, as any session changed since.
 */
const REPROJECT_SPACING = 10;

export class StoreProjection implements CandidateFinder {
  private db: ProjectionDb | undefined;
  private readonly published = new Published();
  private readonly buffer = new SegmentBuffer();
  private builtFor: string | undefined;
  /** The open projection file's device and inode. */
  private fileIdentity = "";
  private probe: string | undefined;
  private running: Promise<void> | undefined;
  private passing: Promise<void> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private wake: (() => void) | undefined;
  private closed = false;
  /** Sessions a host event said changed since they were last projected. */
  private readonly changed = new Set<string>();
  /** Per session projected by a background pass, when the next one may project it again (REPROJECT_SPACING). */
  private readonly notBefore = new Map<string, number>();
  private readonly state: ProjectionStatus = { state: "waiting", projected: 0, total: 0 };

  constructor(private readonly options: ProjectionOptions) {}

  status(): ProjectionStatus {
    const status = { ...this.state };
    if (!this.options.enabled()) status.state = "off";
    status.projected = [...this.published.ids()].filter((id) => !this.changed.has(id)).length;
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
      await this.pass(false);
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
    this.published.reloadIfChanged(db);
    return true;
  }

  /** The change stamp the session is projected whole at, if it is. */
  projectedAt(sessionId: string): string | undefined {
    return this.published.get(sessionId)?.stamp;
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
      this.published.reloadIfChanged(db);
      return await narrowScope({ published: this.published, db, feed: this.options.feed, changed: this.changed }, scope, terms, mustRead);
    } catch (error) {
      this.failed(error);
      return undefined;
    }
  }

  async nearest(words: readonly string[], sessionIds: readonly string[]): Promise<Map<string, NearestTerm[]>> {
    const out = new Map<string, NearestTerm[]>();
    const db = this.db;
    if (!db) return out;
    try {
      this.published.reloadIfChanged(db);
      nearestTerms(this.published, db, words, sessionIds, out);
    } catch (error) {
      this.failed(error);
    }
    return out;
  }

  summary(sessionId: string, updated: number | undefined): ProjectedSummary | undefined {
    const db = this.db;
    if (!db || !this.options.enabled() || this.builtFor !== this.options.visibilityKey()) return undefined;
    try {
      this.published.reloadIfChanged(db);
      return summaryOf({ published: this.published, db, changed: this.changed }, sessionId, updated);
    } catch (error) {
      this.failed(error);
      return undefined;
    }
  }

  private async run(): Promise<void> {
    while (!this.closed && this.options.enabled()) {
      await this.pass(true);
      if (this.state.state === "unavailable" && !this.db) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.timer = setTimeout(resolve, this.options.intervalMs ?? PASS_INTERVAL_MS);
        (this.timer as { unref?: () => void }).unref?.();
      });
      this.wake = undefined;
    }
  }

  /**
   * One pass over the store, shared by whoever asks while it runs (one buffer, one transaction at
   * a time); `spaced`: sessions projected lately wait their turn (REPROJECT_SPACING).
   */
  private pass(spaced: boolean): Promise<void> {
    this.passing ??= this.passOnce(spaced).finally(() => (this.passing = undefined));
    return this.passing;
  }

  /** Failures are logged and end the pass, never thrown. */
  private async passOnce(spaced: boolean): Promise<void> {
    try {
      const db = await this.opened();
      if (!db) return;
      await this.update(db, spaced);
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
    this.buffer.clear();
    this.published.reload(opened.db);
    Object.assign(this.state, { state: "building", file });
    delete this.state.reason;
    return opened.db;
  }

  private unavailable(reason: string): undefined {
    if (this.state.reason !== reason) this.options.log("info", `projection unavailable: ${reason}; many-session searches read every session`);
    Object.assign(this.state, { state: "unavailable", reason });
    return undefined;
  }

  private async update(db: ProjectionDb, spaced: boolean): Promise<void> {
    await this.options.giveWay?.();
    if (this.closed || db !== this.db) return;
    this.published.reloadIfChanged(db);
    const feed = this.options.feed;
    // Read before the listing: whatever changes after it, the store names when asked since it.
    const mark = await feed.watermark();
    const previous = this.published.watermark;
    const changedSince = previous === undefined ? undefined : await feed.changedSince(previous);
    const moved = changedSince && new Set(changedSince);
    const listed = await feed.sessions(this.probe!);
    this.state.total = listed.length;
    const seen = new Set<string>();
    let stale = 0;
    /** Stale sessions left for a later pass (REPROJECT_SPACING): unpublished, so searches read them. */
    const deferred: string[] = [];
    listed.sort((a, b) => (b.updated ?? 0) - (a.updated ?? 0));
    try {
      for (const session of listed) {
        seen.add(session.id);
        // Cleared before the stamp is read: a change after it is either in the stamp or flagged again.
        const flagged = this.changed.delete(session.id);
        const row = this.published.get(session.id);
        const listedAs = row?.updated === (session.updated ?? 0);
        // Unchanged since the last complete pass, which found it as published: no stamp to read.
        if (moved && listedAs && !flagged && !moved.has(session.id)) continue;
        await this.options.giveWay?.();
        if (this.closed || db !== this.db) return;
        await this.options.pause();
        const stamp = await feed.stamp(session.id);
        if (stamp === undefined) {
          this.unavailable("the store gives no change stamps");
          return;
        }
        if (row && row.stamp === stamp && listedAs) continue;
        stale++;
        Object.assign(this.state, { state: "building" });
        if (spaced && (this.notBefore.get(session.id) ?? 0) > Date.now()) {
          deferred.push(session.id);
          continue;
        }
        try {
          const started = performance.now();
          await this.project(session, stamp);
          this.notBefore.set(session.id, Date.now() + (this.options.reprojectSpacing ?? REPROJECT_SPACING) * (performance.now() - started));
          if (this.buffer.postings >= (this.options.segmentPostings ?? SEGMENT_POSTINGS)) await this.flush(db);
        } catch (error) {
          if (flagged) this.changed.add(session.id);
          throw error;
        }
      }
      await this.flush(db);
      if (this.closed || db !== this.db) return;
    } finally {
      // Sessions left in the buffer by a failure are projected again by the next pass.
      this.buffer.clear();
    }
    const gone = [...this.published.ids()].filter((id) => !seen.has(id));
    for (const id of gone) this.notBefore.delete(id);
    // Dropped before the watermark moves past their change: a search that trusts the mark must not find them published.
    const dropped = [...gone, ...deferred.filter((id) => this.published.get(id))];
    if (dropped.length > 0) {
      await inTransaction(db, async () => {
        for (const id of dropped) db.dropSession(id);
      });
      this.published.remove(dropped);
    }
    // A host event for a session the store no longer lists (deleted) has nothing left to project:
    // kept, it would hold the projection short of current for good. A session made after the
    // listing has no row yet, so searches read it all the same; the next pass lists it.
    for (const id of [...this.changed]) if (!seen.has(id)) this.changed.delete(id);
    for (let inputs = mergeChoice(this.published.segments); inputs; inputs = mergeChoice(this.published.segments)) {
      await this.options.giveWay?.();
      if (this.closed || db !== this.db) return;
      await this.merge(db, inputs);
    }
    // Every session listed is now projected at a stamp read after `mark`: what changed since, the store names.
    if (mark !== undefined && mark !== this.published.watermark) {
      db.setMeta(WATERMARK_KEY, mark);
      this.published.watermark = mark;
    }
    if (stale === 0 && this.changed.size === 0) {
      // Written when it becomes current, not on every idle pass (each write is a WAL frame).
      if (this.state.state !== "current") db.setMeta("current_at", String(Date.now()));
      this.state.state = "current";
      this.state.current = Date.now();
    }
  }

  private async project(session: SessionInfo, stamp: string): Promise<void> {
    // No transaction is open while a session is read and counted: its slices give way too.
    const pause = pacedPause(this.options.pause, this.options.giveWay);
    const messages = await this.options.feed.messages(session.id, { pause });
    const counted = await sessionTerms(session.id, messages, this.options.visibility(), pause);
    const row = { id: session.id, updated: session.updated ?? 0, stamp, docs: counted.docs, length: counted.length, turns: counted.turns };
    await this.buffer.add(row, counted, pause);
  }

  /** The buffer written as a segment, its sessions published. */
  private async flush(db: ProjectionDb): Promise<void> {
    if (this.buffer.sessions.length === 0) return;
    // One transaction, never held inside: the host's quiet is waited for before it begins.
    await this.options.giveWay?.();
    if (this.closed || db !== this.db) return;
    this.published.reloadIfChanged(db);
    const { segment, sessions } = await writeSegment(db, this.buffer, this.options.pause);
    this.buffer.clear();
    this.published.add(segment, sessions);
  }

  private async merge(db: ProjectionDb, inputs: SegmentRow[]): Promise<void> {
    this.published.reloadIfChanged(db);
    // Chosen from segments another process may have merged meanwhile: chosen again from the file's.
    if (!inputs.every((input) => this.published.segments.some((segment) => segment.no === input.no))) return;
    try {
      await mergeSegments(db, inputs, this.published.live(), this.options.pause, (segments) => (this.published.segments = segments));
    } catch (error) {
      // The file is as it was before the merge; so are the segments it lists.
      this.published.reload(db);
      throw error;
    }
  }

  /** A failure: a corrupt file is quarantined and built again on the next pass; others are logged. */
  private failed(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    if (this.db && isCorruption(error)) {
      const file = this.db.path;
      this.db.close();
      this.db = undefined;
      this.published.clear();
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
