// What a command is given, and the exit codes scripts can rely on.

import { isStoreProblem } from "../store/store-file.ts";
import type { Parsed } from "./argv.ts";
import { openHistory, type History } from "./history.ts";
import type { Io } from "./io.ts";

export const EXIT = {
  ok: 0,
  /** search or sessions found nothing; doctor found a problem. */
  nothingFound: 1,
  usage: 2,
  /** No store, a schema we do not know, or no runtime to read it. */
  store: 3,
  /** The session or message id is not in the store. */
  notFound: 4,
  failed: 5,
} as const;

/** Raised to end a command with a message and an exit code. */
export class CommandError extends Error {
  readonly code: number;
  constructor(message: string, code: number) {
    super(message);
    this.code = code;
  }
}

export interface CommandContext {
  io: Io;
  /** Opens the store and the project (`--project`, else the working directory); warns about config problems once. */
  history(parsed: Parsed): Promise<History>;
}

export function commandContext(io: Io): CommandContext {
  let opened: History | undefined;
  return {
    io,
    async history(parsed) {
      if (opened) return opened;
      const history = await openHistory({ dataDir: parsed.values.get("data-dir"), project: parsed.values.get("project") });
      if (isStoreProblem(history)) {
        throw new CommandError(`cannot read the OpenCode store: ${history.message}. Run \`opencode-engram doctor\` for details.`, EXIT.store);
      }
      if (history.configProblems.length > 0) io.err(io.style("warn", `opencode-engram config: ${history.configProblems.join("; ")}`));
      opened = history;
      return history;
    },
  };
}
