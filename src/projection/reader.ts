// The store's projection as a search reads it: the candidate finder the search service asks, over
// the file as the builder (builder.ts, on its own thread in the plugin) left it. Answers never wait
// for a pass: a session not published as it is now (buffered, changed, new) is one the search reads.

import { existsSync } from "node:fs";
import type { SessionInfo } from "../history/types.ts";
import type { CandidateFinder, Narrowed, NearestTerm, ProjectedSummary, QueryTerm, SearchTuning } from "../search/projection-contract.ts";
import type { Log } from "../util/log.ts";
import type { ProjectionFeed } from "./feed.ts";
import { narrowScope, projectedNearestTerms, summaryOf } from "./finder.ts";
import { cacheDir, isCorruption, openProjection, projectionPath, projectionSchema, quarantine, diskIdentity, type ProjectionDb } from "./projection-db.ts";
import { Published } from "./published.ts";

export interface ProjectionReaderOptions {
  feed: ProjectionFeed;
  /** projection.enable of the config of the moment. */
  enabled(): boolean;
  /** Names the visibility (show_tool_input / show_tool_output): a projection is built for one. */
  visibilityKey(): string;
  /** What sessions are counted with (the search's tuning): a file counted with another is rebuilt. */
  tuning: SearchTuning;
  log: Log;
  /** Where projection files go (default: $XDG_CACHE_HOME/opencode-engram). */
  dir?: string;
  /** Opens the projection file (default openProjection; tests give an in-memory one). */
  open?: typeof openProjection;
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

export class ProjectionReader<Options extends ProjectionReaderOptions = ProjectionReaderOptions> implements CandidateFinder {
  protected db: ProjectionDb | undefined;
  protected readonly published = new Published();
  private builtFor: string | undefined;
  /** The open projection file's device and inode. */
  private fileIdentity = "";
  protected probe: string | undefined;
  protected closed = false;
  /** Sessions a host event said changed since they were last projected. */
  protected readonly changed = new Set<string>();
  protected readonly state: ProjectionStatus = { state: "waiting", projected: 0, total: 0 };

  constructor(protected readonly options: Options) {}

  status(): ProjectionStatus {
    const status = { ...this.state };
    if (!this.options.enabled()) status.state = "off";
    status.projected = [...this.published.ids()].filter((id) => !this.changed.has(id)).length;
    return status;
  }

  /** A session the host named: the probe that opens the store. */
  observe(sessionId: string): void {
    this.observed(sessionId);
  }

  /** Host event: the session changed (or was removed); searches read it until it is projected again. */
  markDirty(sessionId: string): void {
    this.changed.add(sessionId);
    this.observe(sessionId);
  }

  forget(sessionId: string): void {
    this.markDirty(sessionId);
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
    const db = this.db;
    if (!db) return new Map();
    try {
      this.published.reloadIfChanged(db);
      return projectedNearestTerms(this.published, db, words, sessionIds);
    } catch (error) {
      this.failed(error);
      return new Map();
    }
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

  /** Whether the session counts as named (open, enabled, a real id): then the probe, if none was yet. */
  protected observed(sessionId: string): boolean {
    if (this.closed || sessionId === "" || !this.options.enabled()) return false;
    this.probe ??= sessionId;
    return true;
  }

  protected async opened(): Promise<ProjectionDb | undefined> {
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
    const opened = await (this.options.open ?? openProjection)(file, {
      store,
      storeFile: diskIdentity(store),
      visibility: key,
      schema: projectionSchema(this.options.tuning),
    });
    if ("unavailable" in opened) return this.unavailable(opened.unavailable);
    if (opened.rebuilt) this.options.log("info", `projection ${file} rebuilt: ${opened.rebuilt}`);
    this.db = opened.db;
    this.builtFor = key;
    this.fileIdentity = diskIdentity(file);
    this.reopened();
    this.published.reload(opened.db);
    Object.assign(this.state, { state: "building", file });
    delete this.state.reason;
    return opened.db;
  }

  protected unavailable(reason: string): undefined {
    if (this.state.reason !== reason) this.options.log("info", `projection unavailable: ${reason}; many-session searches read every session`);
    Object.assign(this.state, { state: "unavailable", reason });
    return undefined;
  }

  /** A file opened anew (builder.ts drops what it buffered for the one before). */
  protected reopened(): void {}

  /** A failure: a corrupt file is quarantined and built again on the next pass; others are logged. */
  protected failed(error: unknown): void {
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
