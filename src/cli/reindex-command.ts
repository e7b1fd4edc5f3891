// `opencode-engram reindex`: deletes the store's projection and builds it again now, with the
// plugin's own code, instead of waiting for the plugin's background passes.

import { projectionPath, removeProjection, type ProjectionStatus } from "../projection/index.ts";
import { UsageError, type Parsed } from "./argv.ts";
import { EXIT, type CommandContext } from "./command.ts";
import { commandEngram } from "./history.ts";
import { size } from "./render.ts";
import { fileBytes } from "../store/sqlite.ts";

export const REINDEX_FLAGS = { values: [], switches: [] } as const;

export async function reindexCommand(parsed: Parsed, ctx: CommandContext): Promise<number> {
  if (parsed.positionals.length > 0) throw new UsageError(`reindex takes no arguments (got ${parsed.positionals.join(" ")})`);
  const { io } = ctx;
  const { store, reader, config } = await ctx.history(parsed);
  const file = projectionPath(store.path);
  removeProjection(file);
  // Built when asked even with projection.enable off (the plugin then leaves it unused).
  const { projection } = commandEngram(store, reader, { ...config, projection: { ...config.projection, enable: true } }, (level, message) => {
    if (level !== "info") io.err(message);
  });
  const started = performance.now();
  const timer = setInterval(() => {
    const status = projection.status();
    io.progress(`projecting sessions… ${status.projected} of ${status.total}`);
  }, 500);
  let status: ProjectionStatus;
  try {
    status = await projection.untilCurrent("cli");
  } finally {
    clearInterval(timer);
    io.progress(undefined);
    projection.close();
  }
  const seconds = (performance.now() - started) / 1000;
  if (status.state !== "current") {
    io.err(`opencode-engram reindex: the projection could not be built (${status.reason ?? status.state})`);
    return EXIT.failed;
  }
  const bytes = fileBytes(file);
  if (parsed.switches.has("json")) io.out(JSON.stringify({ file, bytes, sessions: status.total, seconds: Number(seconds.toFixed(2)) }));
  else io.out(`${file}: ${status.total} sessions projected in ${seconds.toFixed(1)} s (${size(bytes)})`);
  return EXIT.ok;
}
