// Run in the host's Bun by cli/generations.test.ts (runInBun): writes a store of one shape, then
// runs the command line's commands on it as `opencode-engram <command> --data-dir … --json` would,
// and answers what each printed and returned.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { answer } from "../../store/testing/run-in-bun.ts";
import { partId } from "../../store/v2/map.ts";
import { V2StoreBuilder, type StoreShape } from "../../store/v2/testing/v2-store.ts";
import { parseArgs, UsageError, type FlagSpec, type Parsed } from "../argv.ts";
import { CommandError, commandContext, EXIT, type CommandContext } from "../command.ts";
import { DOCTOR_FLAGS, doctorCommand } from "../doctor-command.ts";
import { EXPORT_FLAGS, exportCommand } from "../export-command.ts";
import type { Io } from "../io.ts";
import { SEARCH_FLAGS, searchCommand } from "../search-command.ts";
import { SESSIONS_FLAGS, sessionsCommand } from "../sessions-command.ts";
import { SHOW_FLAGS, showCommand } from "../show-command.ts";
import { scratchDir } from "../../util/testing/scratch-dir.ts";

interface Run {
  code: number;
  out: string[];
  err: string[];
}

const COMMANDS: Record<string, [FlagSpec, (parsed: Parsed, ctx: CommandContext) => Promise<number>]> = {
  search: [SEARCH_FLAGS, searchCommand],
  sessions: [SESSIONS_FLAGS, sessionsCommand],
  show: [SHOW_FLAGS, showCommand],
  doctor: [DOCTOR_FLAGS, doctorCommand],
  export: [EXPORT_FLAGS, exportCommand],
};

async function cli(argv: string[]): Promise<Run> {
  const run: Run = { code: -1, out: [], err: [] };
  const io: Io = { out: (line) => run.out.push(line), err: (line) => run.err.push(line), style: (_, text) => text, progress: () => undefined };
  const [name, ...rest] = argv;
  const [flags, command] = COMMANDS[name!]!;
  try {
    run.code = await command(parseArgs(rest, flags), commandContext(io));
  } catch (error) {
    // As main.ts ends a command that throws.
    if (!(error instanceof UsageError) && !(error instanceof CommandError)) throw error;
    run.code = error instanceof CommandError ? error.code : EXIT.usage;
    run.err.push(error.message);
  }
  return run;
}

interface Seeded {
  dataDir: string;
  project: string;
  ids: Record<string, string>;
}

/** One project with a parent session (a prompt, an answer with a shell call) and a subagent session. */
function seedV2(builder: V2StoreBuilder, project: string, ids: Record<string, string>): void {
  builder.session({ id: "ses_v2main", projectId: "prj_main", directory: project, title: "Rate limiter", version: "2.0.31" });
  builder.session({
    id: "ses_v2child",
    projectId: "prj_main",
    directory: project,
    parentId: "ses_v2main",
    title: "Review",
    agent: "general",
    version: "2.0.31",
  });
  ids.question = builder.message("ses_v2main", "user", { text: "What limit does the rate limiter use?" });
  ids.answer = builder.message("ses_v2main", "assistant", {
    agent: "build",
    content: [
      { type: "text", text: "Decision: the rate limiter allows 120 requests per minute per key." },
      {
        type: "tool",
        id: "call_1",
        name: "shell",
        state: { status: "completed", input: { command: "echo LIMITER_REDIS_URL" }, content: [{ type: "text", text: "LIMITER_REDIS_URL is not set" }] },
        time: { created: 1 },
      },
    ],
  });
  builder.message("ses_v2child", "user", { text: "Review the limiter." });
}

async function seed(shape: StoreShape): Promise<Seeded> {
  const root = scratchDir("cli-store");
  const dataDir = join(root, "data");
  const project = join(root, "project");
  mkdirSync(dataDir);
  mkdirSync(project);
  process.env.XDG_CONFIG_HOME = join(root, "config");
  // A built checkout of this package, listed as a directory under OpenCode 2's `plugins` key.
  const checkout = join(project, "engram");
  mkdirSync(join(checkout, "dist"), { recursive: true });
  writeFileSync(join(checkout, "package.json"), '{"name": "opencode-engram"}');
  writeFileSync(join(checkout, "server.js"), 'export { default } from "./dist/index.js";\n');
  writeFileSync(join(checkout, "dist", "index.js"), "export default {};\n");
  writeFileSync(join(project, "opencode.json"), JSON.stringify({ plugins: ["./engram"] }));
  const builder = await V2StoreBuilder.create(join(dataDir, "opencode.db"), shape);
  const ids: Record<string, string> = {};
  if (shape !== "opencode-2") {
    // 1.x history: one session the import copied into session_v2 (same id), one written by 1.x afterwards.
    builder.legacySession("ses_v2main", project, "What limit does the rate limiter use?");
    builder.legacySession("ses_legacyonly", project, "frozenword: a session 1.x wrote after the import");
  }
  if (shape !== "opencode-1") {
    seedV2(builder, project, ids);
    builder.kv("migration.v1-v2", { phase: "completed" });
  }
  builder.close();
  return { dataDir, project, ids };
}

async function commands(shape: StoreShape): Promise<unknown> {
  const { dataDir, project, ids } = await seed(shape);
  const common = ["--data-dir", dataDir, "--json"];
  const inProject = [...common, "--project", project];
  const out: Record<string, unknown> = { ids };
  out.sessions = await cli(["sessions", "--children", ...inProject]);
  out.sessionsPage = await cli(["sessions", "--children", "--limit", "1", "--offset", "1", ...inProject]);
  out.search = await cli(["search", "rate limiter", ...inProject]);
  out.toolSearch = await cli(["search", "LIMITER_REDIS_URL", "--literal", ...inProject]);
  out.frozen = await cli(["search", "frozenword", "--scope", "global", ...common]);
  const alternatives = ["--alt", "LIMITER_REDIS_URL", "--alt", "zebracorn"];
  out.searchAlt = await cli(["search", "rate limiter", ...alternatives, ...inProject]);
  out.searchAltText = await cli(["search", "rate limiter", ...alternatives, "--data-dir", dataDir, "--project", project]);
  out.sessionsAlt = await cli(["sessions", "--children", "--query", "review", ...alternatives, ...inProject]);
  out.altWithoutQuery = await cli(["sessions", "--alt", "limiter", ...inProject]);
  out.altBadPattern = await cli(["search", "rate", "--regex", "--alt", "limit", "--alt", "(a+)+", ...inProject]);
  if (ids.answer) out.showMessage = await cli(["show", ids.answer, ...common]);
  out.showSession = await cli(["show", "ses_v2main", ...common]);
  out.doctor = await cli(["doctor", ...inProject]);
  const dataOnly = ["--data-dir", dataDir];
  out.exportMarkdown = await cli(["export", "ses_v2main", ...dataOnly]);
  out.exportJson = await cli(["export", "ses_v2main", ...common]);
  out.exportMissing = await cli(["export", "ses_nosuchsession", ...dataOnly]);
  if (ids.answer) {
    out.exportMessage = await cli(["export", ids.answer, ...dataOnly]);
    out.showPart = await cli(["show", ids.answer, "--part", partId(ids.answer, "1"), ...common]);
  }
  return out;
}

await answer(async (shape: StoreShape) => commands(shape));
