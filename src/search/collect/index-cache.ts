// The session indexes the plugin keeps across tool calls: built on one queue, bounded in bytes by
// the config of the moment (search.cache_bytes), keyed by session and tool visibility (a change
// of show_tool_input/output makes new indexes, never reuses one built for other text).

import type { EngramConfig } from "../../config/schema.ts";
import type { ToolVisibility } from "../../history/tool-visibility.ts";
import { BoundedMap } from "../../util/bounded-map.ts";
import { BuildQueue, IndexBuilder } from "../index/build.ts";
import type { SearchTuning } from "../tuning.ts";

export class IndexCache {
  private readonly queue = new BuildQueue();
  /** Indexes grow while they build: their bytes are read again on every trim. */
  readonly builders: BoundedMap<string, IndexBuilder>;
  private bound: number;

  constructor(
    private readonly config: () => EngramConfig,
    private readonly visibility: () => ToolVisibility,
    private readonly tuning: SearchTuning,
  ) {
    this.bound = config().search.cache_bytes;
    this.builders = new BoundedMap<string, IndexBuilder>({
      max: this.bound,
      weight: (builder) => builder.bytes(),
      onRemove: (builder) => builder.dispose(),
    });
  }

  /** The session's index builder (made, with nothing built, when absent). */
  builderOf(sessionId: string): IndexBuilder {
    const key = this.key(sessionId);
    let builder = this.builders.get(key);
    if (!builder) {
      builder = new IndexBuilder(this.visibility(), this.tuning, this.queue);
      this.builders.set(key, builder);
    }
    return builder;
  }

  /** The session's index builder if it has one (a search of it alone made it). */
  existing(sessionId: string): IndexBuilder | undefined {
    return this.builders.get(this.key(sessionId));
  }

  trim(): void {
    this.builders.trim();
  }

  /** Drops every index, stopping their builds. */
  clear(): void {
    for (const key of this.builders.keys()) this.builders.delete(key);
  }

  private key(sessionId: string): string {
    // The bound follows the config (enforced when it changes, not on every lookup).
    const config = this.config();
    if (config.search.cache_bytes !== this.bound) this.builders.setMax((this.bound = config.search.cache_bytes));
    return `${sessionId}\u0000${JSON.stringify([config.show_tool_input, config.show_tool_output])}`;
  }
}
