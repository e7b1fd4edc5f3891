// The heavy user's store (issue 24's machine): 3,000 real agent sessions in 30 projects, built
// once from the bench's data folder and cached beside it. The 500 corpus sessions are there six
// times: the originals and five copies, each a day older than the last. A copy's ids replace the
// character after the id's time part with the copy's letter and drop the last one, so ids keep
// their length and a session's messages their order. Sessions go round-robin (by id) to 30
// projects; project 0 is the bench host's own (its directory is set when a host is seeded), the
// others live in directories no host runs in.

import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { BENCH_PROJECT_ID, type BenchData, openDb } from "./data.ts";

const PROJECTS = 30;
const COPIES = ["Q", "R", "S", "T", "U"];
const DAY_MS = 86_400_000;

export interface HeavyData {
  /** The XDG_DATA_HOME folder holding the heavy `opencode/opencode.db`. */
  xdgData: string;
  sessions: number;
  messages: number;
  projects: number;
  /** Sessions in the bench host's own project. */
  ownProject: number;
  /** Text of the sessions (text, reasoning, tool input and output), MB: six times the corpus's. */
  textMb: number;
  dbMb: number;
}

const copyId = (column: string) => `substr(${column}, 1, 16) || ?1 || substr(${column}, 17, length(${column}) - 17)`;

function project(n: number): { id: string; directory: string } {
  const p = n % PROJECTS;
  const name = `p${String(p).padStart(2, "0")}`;
  return p === 0 ? { id: BENCH_PROJECT_ID, directory: "" } : { id: `engram-heavy-${name}`, directory: `/heavy/${name}` };
}

/** Builds the heavy store once (beside the bench data folder) and returns it; later calls reuse it. */
export async function heavyData(base: BenchData, log: (line: string) => void): Promise<HeavyData> {
  const dir = join(dirname(base.xdgData), `heavy-${PROJECTS}-projects-${COPIES.length + 1}x`);
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
    COPIES.forEach((letter, i) => {
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
      const p = project(n);
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
    textMb: base.corpusMb * (COPIES.length + 1),
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
