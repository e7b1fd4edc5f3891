// `opencode-engram export <session_id>`: a whole session as Markdown for a person, or with --json
// as the document `opencode export` writes (and `opencode import` reads back), to stdout or a file.

import { existsSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { sessionOfMessage } from "../store/figures.ts";
import { exportDocument } from "../store/session-export.ts";
import { UsageError, type Parsed } from "./argv.ts";
import { CommandError, EXIT, type CommandContext } from "./command.ts";
import { sessionMarkdown } from "./export-markdown.ts";
import { sessionView } from "./show-command.ts";

export const EXPORT_FLAGS = { values: ["output"], switches: [], shorts: { o: "output" } } as const;

/**
 * Writes `text` to `path` whole or not at all: into a temporary file beside it, then renamed over
 * it. A missing folder is the person's mistake, said before anything is read.
 */
export function writeWhole(path: string, text: string): void {
  const target = resolve(path);
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, target);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw new CommandError(`cannot write ${target}: ${error instanceof Error ? error.message : String(error)}`, EXIT.failed);
  }
}

/** Why `path` cannot be written to, for a usage error, or undefined when its folder is there. */
export function outputProblem(path: string): string | undefined {
  const target = resolve(path);
  const folder = dirname(target);
  if (!existsSync(folder)) return `-o ${path}: the folder ${folder} does not exist (export creates no folders)`;
  if (!statSync(folder).isDirectory()) return `-o ${path}: ${folder} is not a folder`;
  if (existsSync(target) && statSync(target).isDirectory()) return `-o ${path}: ${target} is a folder; give a file name`;
  return undefined;
}

export async function exportCommand(parsed: Parsed, ctx: CommandContext): Promise<number> {
  const [id, ...extra] = parsed.positionals;
  if (!id || extra.length > 0) throw new UsageError("export needs one session id: opencode-engram export <ses_…> [--json] [-o FILE]");
  const output = parsed.values.get("output");
  const problem = output !== undefined ? outputProblem(output) : undefined;
  if (problem) throw new UsageError(problem);
  const history = await ctx.history(parsed);
  if (id.startsWith("msg_")) {
    const session = await sessionOfMessage(history.store, id);
    const hint = session ? `; it belongs to session ${session}: opencode-engram export ${session}` : "";
    throw new UsageError(`export takes a session id (ses_…), and ${id} is a message id${hint}`);
  }
  if (!id.startsWith("ses_")) throw new UsageError(`export takes a session id (ses_…), got ${id}`);
  let text: string;
  if (parsed.switches.has("json")) {
    const document = await exportDocument(history.store, id);
    if (!document) throw new CommandError(`session ${id} is not in the store (${history.store.path})`, EXIT.notFound);
    text = JSON.stringify(document);
  } else {
    const view = await sessionView(history, id);
    const session = await history.source.getSession(id);
    text = sessionMarkdown(session, view, { visibility: history.visibility, directory: session.directory ?? history.root }).trimEnd();
  }
  if (output === undefined) ctx.io.out(text);
  else {
    writeWhole(output, `${text}\n`);
    ctx.io.err(`exported session ${id} to ${resolve(output)}`);
  }
  return EXIT.ok;
}
