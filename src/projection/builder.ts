// The store's projection kept current in the background. A pass lists every session of the store,
// compares each one's change stamp with the one it was projected at, and projects again the
// sessions that changed (read, cut into documents, counted into a buffer), newest first; the
// buffer is written as a segment when it holds SEGMENT_POSTINGS postings and at the end of the
// pass, and segments are merged as they pile up (segments.ts); sessions gone from the store are
// dropped. Passes repeat every few seconds; host events mark a session changed at once. All of it
// yields between slices at background priority, so it never runs while a search does, and outside
// a transaction it gives way while the host answers one of our tools (giveWay). What it answers a
// search it answers as the reader it extends (reader.ts).

import type { ToolVisibility } from "../history/tool-visibility.ts";
import type { SessionInfo } from "../history/types.ts";
import { sessionTerms } from "../search/projection-contract.ts";
import { pacedPause } from "./build-pace.ts";
import type { ProjectionDb, SegmentRow } from "./projection-db.ts";
import { WATERMARK_KEY } from "./published.ts";
import { ProjectionReader, type ProjectionReaderOptions, type ProjectionStatus } from "./reader.ts";
import { SegmentBuffer } from "./segment-buffer.ts";
import { inTransaction, mergeChoice, mergeSegments, writeSegment } from "./segments.ts";

export interface ProjectionBuilderOptions extends ProjectionReaderOptions {
  visibility(): ToolVisibility;
  /** Between pieces of background work: a promise when a turn of the event loop is due. */
  pause(): Promise<void> | undefined;
  /**
   * Before a slice where no transaction is open: a promise while the host's thread answers our
   * tools (build-pace.ts's GiveWay); none, never held.
   */
  giveWay?(): Promise<void> | undefined;
  /** Pause between passes (default PASS_INTERVAL_MS). */
  intervalMs?: number;
  /** A session is projected again by a background pass no sooner than this many times its last projection's time after it (default REPROJECT_SPACING). */
  reprojectSpacing?: number;
  /** Postings buffered before they are written as a segment (default SEGMENT_POSTINGS). */
  segmentPostings?: number;
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

export class ProjectionBuilder extends ProjectionReader<ProjectionBuilderOptions> {
  private readonly buffer = new SegmentBuffer(this.options.tuning);
  private running: Promise<void> | undefined;
  private passing: Promise<void> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private wake: (() => void) | undefined;
  /** Per session projected by a background pass, when the next one may project it again (REPROJECT_SPACING). */
  private readonly notBefore = new Map<string, number>();

  /** A session the host named: the probe that opens the store, and the start of the background passes. */
  override observe(sessionId: string): void {
    if (this.observed(sessionId)) this.running ??= this.run().finally(() => (this.running = undefined));
  }

  override markDirty(sessionId: string): void {
    super.markDirty(sessionId);
    this.wake?.();
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

  override close(): void {
    super.close();
    clearTimeout(this.timer);
    this.wake?.();
  }

  protected override reopened(): void {
    this.buffer.clear();
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
    const counted = await sessionTerms(session.id, messages, this.options.visibility(), this.options.tuning, pause);
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
}
