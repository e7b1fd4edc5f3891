// opencode-engram: the plugin's history search and reading for people, from the terminal, over
// the host's store read-only (no running host needed). Run through bin/opencode-engram.mjs, which
// starts it in Bun.

import { HistoryError } from "../history/errors.ts";
import { parseArgs, UsageError, type FlagSpec, type Parsed } from "./argv.ts";
import { CommandError, commandContext, EXIT, type CommandContext } from "./command.ts";
import { DOCTOR_FLAGS, doctorCommand } from "./doctor-command.ts";
import { EXPORT_FLAGS, exportCommand } from "./export-command.ts";
import { HELP, USAGE } from "./help.ts";
import { terminalIo } from "./io.ts";
import { REINDEX_FLAGS, reindexCommand } from "./reindex-command.ts";
import { SEARCH_FLAGS, searchCommand } from "./search-command.ts";
import { SESSIONS_FLAGS, sessionsCommand } from "./sessions-command.ts";
import { SHOW_FLAGS, showCommand } from "./show-command.ts";

interface Command {
  flags: FlagSpec;
  run(parsed: Parsed, ctx: CommandContext): Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  search: { flags: SEARCH_FLAGS, run: searchCommand },
  sessions: { flags: SESSIONS_FLAGS, run: sessionsCommand },
  show: { flags: SHOW_FLAGS, run: showCommand },
  export: { flags: EXPORT_FLAGS, run: exportCommand },
  doctor: { flags: DOCTOR_FLAGS, run: doctorCommand },
  reindex: { flags: REINDEX_FLAGS, run: reindexCommand },
};

export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  const fallbackIo = terminalIo({ json: argv.includes("--json"), noColor: argv.includes("--no-color") });
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    const topic = name === "help" ? rest[0] : undefined;
    fallbackIo.out(topic && HELP[topic] ? HELP[topic] : USAGE);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) {
    fallbackIo.err(`opencode-engram: unknown command ${JSON.stringify(name)}\n\n${USAGE}`);
    return EXIT.usage;
  }
  let parsed: Parsed;
  try {
    parsed = parseArgs(rest, command.flags);
  } catch (error) {
    fallbackIo.err(`opencode-engram ${name}: ${(error as Error).message}\n\n${HELP[name]}`);
    return EXIT.usage;
  }
  if (parsed.switches.has("help")) {
    fallbackIo.out(HELP[name]!);
    return EXIT.ok;
  }
  const io = terminalIo({ json: parsed.switches.has("json"), noColor: parsed.switches.has("no-color") });
  try {
    return await command.run(parsed, commandContext(io));
  } catch (error) {
    io.progress(undefined);
    const [message, code] =
      error instanceof UsageError
        ? [`${error.message}\n\n${HELP[name]}`, EXIT.usage]
        : error instanceof CommandError
          ? [error.message, error.code]
          : error instanceof HistoryError
            ? [error.message, /not found/i.test(error.message) ? EXIT.notFound : EXIT.usage]
            : [`unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`, EXIT.failed];
    io.err(`opencode-engram ${name}: ${message}`);
    return code;
  }
}

// Exit explicitly: the search engine's background index builds would otherwise keep the process up.
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`opencode-engram: ${String(error)}\n`);
    process.exit(EXIT.failed);
  },
);
