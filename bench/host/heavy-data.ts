// The heavy user's stores, built once from the bench's data folder and cached beside it (one
// folder per size): issue 24's machine, 3,000 real agent sessions in 30 projects (the 500 corpus
// sessions six times), and issue 40's second round, 10,000 in 50 projects (twenty times, about
// 860 MB of text). The originals are there with copies, each a day older than the last. A copy's
// ids replace the character after the id's time part with the copy's letter and drop the last
// one, so ids keep their length and a session's messages their order. Sessions go round-robin
// (by id) to the projects; project 0 is the bench host's own (its directory is set when a host is
// seeded), the others live in directories no host runs in.

import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { BENCH_PROJECT_ID, type BenchData, openDb } from "./data.ts";

/** A heavy store's size: the corpus `times` times over (originals and copies), in `projects` projects. */
export interface HeavySize {
  times: number;
  projects: number;
}
export const HEAVY_3K: HeavySize = { times: 6, projects: 30 };
export const HEAVY_10K: HeavySize = { times: 20, projects: 50 };
// The copies' letters, in order; the 3,000-session store's five come first, so its ids stay as they were.
const LETTERS = "QRSTUVWXYZGHIJKLMNOP";
const DAY_MS = 86_400_000;

export interface HeavyData {
  /** The XDG_DATA_HOME folder holding the heavy `opencode/opencode.db`. */
  xdgData: string;
  sessions: number;
  messages: number;
  projects: number;
  /** Sessions in the bench host's own project. */
  ownProject: number;
  /** Text of the sessions (text, reasoning, tool input and output), MB: the corpus's times the copies. */
  textMb: number;
  dbMb: number;
}

const copyId = (column: string) => `substr(${column}, 1, 16) || ?1 || substr(${column}, 17, length(${column}) - 17)`;

function project(n: number, projects: number): { id: string; directory: string } {
  const p = n % projects;
  const name = `p${String(p).padStart(2, "0")}`;
  return p === 0 ? { id: BENCH_PROJECT_ID, directory: "" } : { id: `engram-heavy-${name}`, directory: `/heavy/${name}` };
}

/** Builds the heavy store once (beside the bench data folder) and returns it; later calls reuse it. */
export async function heavyData(base: BenchData, size: HeavySize, log: (line: string) => void): Promise<HeavyData> {
  if (size.times < 1 || size.times > LETTERS.length + 1) throw new Error(`a heavy store holds the corpus 1 to ${LETTERS.length + 1} times`);
  const copies = [...LETTERS.slice(0, size.times - 1)];
  const dir = join(dirname(base.xdgData), `heavy-${size.projects}-projects-${size.times}x`);
  const ready = join(dir, "ready.json");
  if (existsSync(ready)) return { ...(JSON.parse(readFileSync(ready, "utf8")) as Omit<HeavyData, "xdgData">), xdgData: join(dir, "data") };

  const building = `${dir}.partial-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(join(building, "data", "opencode"), { recursive: true });
  const path = join(building, "data", "opencode", "opencode.db");
  copyFileSync(join(base.xdgData, "opencode", "opencode.db"), path);
  log(`building the heavy-user store ${dir} (once)`);
  const started = performance.now();
  const db = await openDb(path);
  const generated = Object.values(base.generated).map((g) => g.id);
  db.transaction(() => {
    for (const id of generated) for (const table of ["part", "message"]) db.query(`DELETE FROM ${table} WHERE session_id = ?`).run(id);
    for (const id of generated) db.query("DELETE FROM session WHERE id = ?").run(id);
    db.query("CREATE TEMP TABLE original AS SELECT id FROM session").run();
    copies.forEach((letter, i) => {
      db.query(
        `INSERT INTO session (id, project_id, slug, directory, path, title, version, time_created, time_updated)
         SELECT ${copyId("id")}, project_id, slug, directory, path, title, version, time_created - ?2, time_updated - ?2
         FROM session WHERE id IN (SELECT id FROM original)`,
      ).run(letter, (i + 1) * DAY_MS);
      db.query(
        `INSERT INTO message (id, session_id, time_created, time_updated, data)
         SELECT ${copyId("id")}, ${copyId("session_id")}, time_created, time_updated,
           CASE WHEN json_extract(data, '$.parentID') IS NULL THEN data
                ELSE json_set(data, '$.parentID', ${copyId("json_extract(data, '$.parentID')")}) END
         FROM message WHERE session_id IN (SELECT id FROM original)`,
      ).run(letter);
      db.query(
        `INSERT INTO part (id, message_id, session_id, time_created, time_updated, data)
         SELECT ${copyId("id")}, ${copyId("message_id")}, ${copyId("session_id")}, time_created, time_updated, data
         FROM part WHERE session_id IN (SELECT id FROM original)`,
      ).run(letter);
    });
    const ids = (db.query("SELECT id FROM session ORDER BY id").all() as Array<{ id: string }>).map((r) => r.id);
    const move = db.query("UPDATE session SET project_id = ?, directory = CASE WHEN ? = '' THEN directory ELSE ? END WHERE id = ?");
    const addProject = db.query("INSERT OR IGNORE INTO project (id, worktree, vcs, time_created, time_updated, sandboxes) VALUES (?, ?, 'git', ?, ?, '[]')");
    ids.forEach((id, n) => {
      const p = project(n, size.projects);
      if (p.directory) addProject.run(p.id, p.directory, Date.now(), Date.now());
      move.run(p.id, p.directory, p.directory, id);
    });
  })();
  const count = (sql: string) => (db.query(sql).get() as { n: number }).n;
  const data: Omit<HeavyData, "xdgData"> = {
    sessions: count("SELECT count(*) AS n FROM session"),
    messages: count("SELECT count(*) AS n FROM message"),
    projects: count("SELECT count(DISTINCT project_id) AS n FROM session"),
    ownProject: count(`SELECT count(*) AS n FROM session WHERE project_id = '${BENCH_PROJECT_ID}'`),
    textMb: base.corpusMb * size.times,
    dbMb: 0,
  };
  db.close();
  data.dbMb = statSync(path).size / 1e6;
  log(
    `  ${data.sessions} sessions, ${data.messages} messages in ${data.projects} projects (${data.textMb.toFixed(0)} MB of text, a ${data.dbMb.toFixed(0)} MB store) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  writeFileSync(join(building, "ready.json"), JSON.stringify(data));
  rmSync(dir, { recursive: true, force: true });
  renameSync(building, dir);
  return { ...data, xdgData: join(dir, "data") };
}
