// Run in the host's Bun by projection-sqlite.test.ts (runInBun): an OpenCode 2 store of many
// sessions (v2-store.ts), the projection built in a SQLite file of a temporary cache folder, and
// many-session answers with and without it; then the store changed, the file deleted, the file
// corrupted, and doctor, reindex and a global search through the command line.

import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSearchService, type SearchService } from "../../search/api.ts";
import { CachedHistorySource } from "../../store/cached-source.ts";
import { answer } from "../../store/testing/run-in-bun.ts";
import { scenarioStore, searchAnswers, seedWordSessions } from "../../projection/testing/projection-answers.ts";
import { V2StoreBuilder } from "../../store/v2/testing/v2-store.ts";
import { projectionPath, readerFeed, removeProjection, ProjectionBuilder } from "../../projection/index.ts";
import { openWritable } from "../../store/sqlite.ts";
import { type FlagSpec, parseArgs } from "../argv.ts";
import { commandContext } from "../command.ts";
import { scopedReader } from "../history.ts";
import { DOCTOR_FLAGS, doctorCommand } from "../doctor-command.ts";
import { REINDEX_FLAGS, reindexCommand } from "../reindex-command.ts";
import { SEARCH_FLAGS, searchCommand } from "../search-command.ts";
import type { Io } from "../io.ts";
import { scratchDir } from "../../util/testing/scratch-dir.ts";
import { DEFAULT_TUNING } from "../../search/api.ts";

const root = scratchDir("projection");
const dataDir = join(root, "data");
const cache = join(root, "cache");
mkdirSync(dataDir);
process.env.XDG_CACHE_HOME = cache;
process.env.XDG_CONFIG_HOME = join(root, "config");

const builder = await V2StoreBuilder.create(join(dataDir, "opencode.db"), "opencode-2");
seedWordSessions(builder, 24, 7, (s) => ({
  id: `ses_p${String(s).padStart(3, "0")}`,
  projectId: s % 3 === 0 ? "prj_b" : "prj_a",
  directory: s % 3 === 0 ? "/b" : "/a",
}));
const doomed = builder.message("ses_p007", "assistant", { content: [{ type: "text", text: "wombatword said once" }] });

const { store, config, visibility } = await scenarioStore(dataDir);
const reader = scopedReader(store, (session) => session.directory === "/a");
const log: string[] = [];

function projection(): ProjectionBuilder {
  return new ProjectionBuilder({
    feed: readerFeed(reader, store.decode),
    enabled: () => true,
    visibility: () => visibility,
    visibilityKey: () => "default",
    tuning: DEFAULT_TUNING,
    pause: () => undefined,
    log: (level, message) => log.push(`${level}: ${message}`),
    intervalMs: 3_600_000,
    // Segments of a few sessions: writes, merges and postings left behind by sessions projected again, in SQLite.
    segmentPostings: 60,
  });
}

function service(finder?: ProjectionBuilder): SearchService {
  const source = new CachedHistorySource(reader, { checkSize: 20, maxSingleReads: 50, maxBytes: 1 << 26 }, store.decode);
  return createSearchService({ source, config: () => config, visibility: () => visibility, ...(finder ? { finder } : {}) });
}

async function sameAnswers(finder: ProjectionBuilder): Promise<boolean> {
  const [plain, projected] = [await searchAnswers(service(), "ses_p001"), await searchAnswers(service(finder), "ses_p001")];
  return JSON.stringify(plain) === JSON.stringify(projected);
}

async function cli(run: typeof doctorCommand, flags: FlagSpec, argv: string[]) {
  const out: string[] = [];
  // The search commands' progress line counts the sessions read: the most it said.
  let read = 0;
  const io: Io = {
    out: (line) => out.push(line),
    err: (line) => out.push(line),
    style: (_, text) => text,
    progress: (line) => {
      read = Math.max(read, Number(line?.match(/(\d+)\/\d+ sessions/)?.[1] ?? 0));
    },
  };
  const code = await run(parseArgs(argv, flags), commandContext(io));
  return { code, out, read };
}

await answer(async () => {
  const out: Record<string, unknown> = {};
  const file = projectionPath(join(dataDir, "opencode.db"), join(cache, "opencode-engram"));
  let built = projection();
  out.built = (await built.untilCurrent("ses_p001")).state;
  out.fileExists = existsSync(file);
  out.sameBuilt = await sameAnswers(built);

  // The store changed under it: a new message with a word no session held, one session's messages gone.
  builder.message("ses_p004", "assistant", { content: [{ type: "text", text: "quokkaword landed" }] });
  const before = await service(built).search({ query: "wombatword", callerSessionId: "ses_p001", scope: "global", types: ["text"] });
  out.doomedBefore = before.results.map((r) => r.sessionId);
  builder.remove("ses_p007", [doomed]);
  const found = await service(built).search({ query: "quokkaword", callerSessionId: "ses_p001", scope: "global", types: ["text"] });
  out.newFound = found.results.map((r) => r.sessionId);
  const gone = await service(built).search({ query: "wombatword", callerSessionId: "ses_p001", scope: "global", types: ["text"] });
  out.doomedAfter = gone.results.map((r) => r.sessionId);
  out.sameChanged = await sameAnswers(built);
  // Projected again: the changed sessions' new postings in a new segment, their old ones left in older segments or merged away.
  out.afterPass = (await built.untilCurrent()).state;
  out.sameAfterPass = await sameAnswers(built);
  const written = await openWritable(file);
  out.segments = (written!.query("SELECT count(*) AS n FROM segment").get() as { n: number }).n;
  out.sessionRows = (written!.query("SELECT count(*) AS n FROM session").get() as { n: number }).n;
  written!.close();

  // Deleted while open: the next pass builds a new file where it was.
  rmSync(file);
  out.rebuiltAfterDelete = (await built.untilCurrent()).state;
  out.fileBack = existsSync(file);
  out.sameDeleted = await sameAnswers(built);
  built.close();

  // Corrupted: quarantined, built again, never a crash.
  writeFileSync(file, "this is not a database ".repeat(500));
  for (const suffix of ["-wal", "-shm"]) rmSync(file + suffix, { force: true });
  built = projection();
  out.rebuiltAfterCorrupt = (await built.untilCurrent("ses_p001")).state;
  out.quarantined = readdirSync(join(cache, "opencode-engram")).filter((name) => name.includes(".corrupt-")).length;
  out.sameCorrupt = await sameAnswers(built);
  built.close();

  // A file of the schema before segments (a posting row per term and session): rebuilt, not misread.
  built = projection();
  await built.untilCurrent("ses_p001");
  built.close();
  const older = await openWritable(file);
  older!.exec("UPDATE meta SET value = '2' WHERE key = 'schema'");
  older!.exec("DROP TABLE posting");
  older!.exec("CREATE TABLE posting (term TEXT NOT NULL, session INTEGER NOT NULL, df INTEGER NOT NULL, PRIMARY KEY (term, session)) WITHOUT ROWID");
  older!.close();
  built = projection();
  out.rebuiltAfterSchema = (await built.untilCurrent("ses_p001")).state;
  out.sameSchema = await sameAnswers(built);
  built.close();

  out.doctor = await cli(doctorCommand, DOCTOR_FLAGS, ["--data-dir", dataDir, "--json"]);
  out.reindex = await cli(reindexCommand, REINDEX_FLAGS, ["--data-dir", dataDir, "--json"]);
  // The command line's global search with the projection reindex built, then with none (a
  // project folder of its own: the working directory's config must not count).
  mkdirSync(join(root, "project"));
  writeFileSync(join(root, "project", "opencode-engram.jsonc"), JSON.stringify({ projection: { min_sessions: 2 } }));
  const globalSearch = ["quokkaword", "--scope", "global", "--data-dir", dataDir, "--project", join(root, "project"), "--json"];
  out.cliProjected = await cli(searchCommand, SEARCH_FLAGS, globalSearch);
  removeProjection(file);
  out.cliPlain = await cli(searchCommand, SEARCH_FLAGS, globalSearch);
  out.cliLeftNoFile = existsSync(file);
  out.log = log;
  return out;
});
