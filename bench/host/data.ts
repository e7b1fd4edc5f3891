// The bench's imported sessions: one scratch data folder (XDG_DATA_HOME) holding the generated
// sessions and the 500-session real corpus in one project, built once and reused across runs.
//
// `opencode import` starts the host binary for every file (2–3 s a session, ~20 min for the
// corpus). It inserts one session row, then per message `{id, session_id, time_created, data}`
// and per part `{id, message_id, session_id, data}`, where `data` is the JSON without the ids.
// So the first session goes through the real import (which also creates and migrates the
// database and the project row) and the rest are inserted the same way directly, in one
// transaction; the first session's rows are then compared with what the direct route would have
// written, and any difference is printed.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import type { HistoryMessage } from "../../src/history/types.ts";
import { hostEnv } from "../../e2e/harness/host.ts";
import { repoRoot, resolveOpencodeBinary } from "../../e2e/harness/paths.ts";
import { generateSession } from "../generate.ts";

/** The project id every bench host resolves to (the host reads it from `.git/opencode`). */
export const BENCH_PROJECT_ID = "engram-bench-project";

export interface ExportedSession {
  info: Record<string, unknown> & { id: string };
  messages: Array<{ info: Record<string, unknown> & { id: string }; parts: Array<Record<string, unknown> & { id: string }> }>;
}

export interface BenchData {
  /** The XDG_DATA_HOME folder (holds `opencode/opencode.db`). */
  xdgData: string;
  /** Generated sessions by message count. */
  generated: Record<string, { id: string; mb: number }>;
  /** The real corpus sessions' ids. */
  corpus: string[];
  corpusMb: number;
}

// With one 200 KB tool output per 200 messages: about 7 MB and 36 MB of text, the sizes the issue
// measured and the "up to 30 MB" of its stall goal.
const GENERATED = [4000, 20000];
const GENERATOR_VERSION = 2;

export interface SqliteDb {
  query(sql: string): { all(...p: unknown[]): unknown[]; get(...p: unknown[]): unknown; run(...p: unknown[]): unknown };
  transaction<T>(fn: () => T): () => T;
  close(): void;
}

/** bun:sqlite's opener, loaded once: a caller that must not await between two steps opens with it synchronously. */
export async function sqliteOpener(): Promise<(path: string) => SqliteDb> {
  const specifier = "bun:sqlite";
  const module = (await import(/* @vite-ignore */ specifier)) as { Database: new (path: string) => SqliteDb };
  return (path) => new module.Database(path);
}

export async function openDb(path: string): Promise<SqliteDb> {
  return (await sqliteOpener())(path);
}

export function corpusDir(): string {
  return resolve(repoRoot, "..", "shared", "corpus", "swebench");
}

function hostVersion(): string {
  return (JSON.parse(readFileSync(join(repoRoot, "node_modules", "opencode-ai", "package.json"), "utf8")) as { version: string }).version;
}

function cacheKey(files: string[]): string {
  const hash = createHash("sha256");
  hash.update(`generator ${GENERATOR_VERSION} ${GENERATED.join(",")}\n`);
  for (const file of files) hash.update(`${file} ${statSync(join(corpusDir(), file)).size}\n`);
  return `opencode-${hostVersion()}-${hash.digest("hex").slice(0, 12)}`;
}

/** Host-format ids sort like the host's own (time order) and never collide with them. */
function hostJson(messages: HistoryMessage[], sessionId: string, title: string): ExportedSession {
  const out: ExportedSession["messages"] = [];
  let parentId = "";
  for (const message of messages) {
    const created = message.created ?? 0;
    const info: Record<string, unknown> & { id: string } =
      message.role === "user"
        ? { id: message.id, sessionID: sessionId, role: "user", time: { created }, agent: "build", model: { providerID: "mock", modelID: "mock-model" } }
        : {
            id: message.id,
            sessionID: sessionId,
            role: "assistant",
            time: { created, completed: created + 500 },
            parentID: parentId,
            modelID: "mock-model",
            providerID: "mock",
            mode: "build",
            agent: "build",
            path: { cwd: "/bench", root: "/bench" },
            cost: 0,
            tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
            finish: "stop",
          };
    if (message.role === "user") parentId = message.id;
    const parts: ExportedSession["messages"][number]["parts"] = [];
    for (const part of message.parts) {
      const base = { id: part.id, sessionID: sessionId, messageID: message.id };
      if (part.kind === "text") parts.push({ ...base, type: "text", text: part.text });
      else if (part.kind === "tool") {
        const time = { start: created + 100, end: created + 400 };
        parts.push({
          ...base,
          type: "tool",
          callID: part.callId,
          tool: part.tool,
          state: { status: "completed", input: part.input, output: part.output ?? "", title: "", metadata: {}, time },
        });
      }
    }
    out.push({ info, parts });
  }
  const first = messages[0]?.created ?? 0;
  const last = messages[messages.length - 1]?.created ?? 0;
  return {
    info: { id: sessionId, slug: title, projectID: "global", directory: "/bench", title, version: hostVersion(), time: { created: first, updated: last } },
    messages: out,
  };
}

/** Text bytes of a session (text, reasoning, tool input and output), the "MB of text". */
export function textBytes(session: ExportedSession): number {
  let bytes = 0;
  for (const message of session.messages) {
    for (const part of message.parts) {
      if (typeof part.text === "string") bytes += Buffer.byteLength(part.text);
      const state = part.state as { input?: unknown; output?: unknown } | undefined;
      if (state) {
        if (typeof state.output === "string") bytes += Buffer.byteLength(state.output);
        if (state.input !== undefined) bytes += Buffer.byteLength(JSON.stringify(state.input));
      }
    }
  }
  return bytes;
}

function without<T extends Record<string, unknown>>(value: T, ...keys: string[]): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...value };
  for (const key of keys) delete copy[key];
  return copy;
}

interface Rows {
  session: Record<string, unknown>;
  messages: Array<{ id: string; time_created: number; data: string }>;
  parts: Array<{ id: string; message_id: string; data: string }>;
}

function rowsOf(session: ExportedSession, directory: string): Rows {
  const info = session.info as { id: string; slug?: string; title?: string; version?: string; time?: { created?: number; updated?: number } };
  return {
    session: {
      id: info.id,
      project_id: BENCH_PROJECT_ID,
      slug: info.slug ?? info.id,
      directory,
      path: "",
      title: info.title ?? info.id,
      version: info.version ?? hostVersion(),
      time_created: info.time?.created ?? 0,
      time_updated: info.time?.updated ?? info.time?.created ?? 0,
    },
    messages: session.messages.map((m) => ({
      id: m.info.id,
      time_created: ((m.info.time as { created?: number } | undefined)?.created ?? 0) as number,
      data: JSON.stringify(without(m.info, "id", "sessionID")),
    })),
    parts: session.messages.flatMap((m) =>
      m.parts.map((p) => ({ id: p.id, message_id: m.info.id, data: JSON.stringify(without(p, "id", "sessionID", "messageID")) })),
    ),
  };
}

function insert(db: SqliteDb, rows: Rows, now: number): void {
  const s = rows.session;
  db.query(
    "INSERT OR REPLACE INTO session (id, project_id, slug, directory, path, title, version, time_created, time_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  ).run(s.id, s.project_id, s.slug, s.directory, s.path, s.title, s.version, s.time_created, s.time_updated);
  const message = db.query("INSERT OR IGNORE INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)");
  for (const m of rows.messages) message.run(m.id, s.id, m.time_created, now, m.data);
  const part = db.query("INSERT OR IGNORE INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)");
  for (const p of rows.parts) part.run(p.id, p.message_id, s.id, now, now, p.data);
}

/** Differences between what `opencode import` wrote for a session and what `insert` would write. */
function compareWithImport(db: SqliteDb, rows: Rows): string[] {
  const problems: string[] = [];
  const id = rows.session.id;
  const session = db.query("SELECT * FROM session WHERE id = ?").get(id) as Record<string, unknown> | null;
  if (!session) return [`session ${String(id)} missing after import`];
  for (const [key, value] of Object.entries(rows.session))
    if (key !== "directory" && session[key] !== value) problems.push(`session.${key}: import ${String(session[key])}, direct ${String(value)}`);
  const messages = db.query("SELECT id, time_created, data FROM message WHERE session_id = ? ORDER BY id").all(id) as Rows["messages"];
  const parts = db.query("SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY id").all(id) as Rows["parts"];
  const same = (a: string, b: string) => JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b)) || deepEqual(JSON.parse(a), JSON.parse(b));
  const mine = new Map(rows.messages.map((m) => [m.id, m]));
  if (messages.length !== rows.messages.length) problems.push(`messages: import ${messages.length}, direct ${rows.messages.length}`);
  for (const m of messages) {
    const other = mine.get(m.id);
    if (!other || other.time_created !== m.time_created || !same(other.data, m.data)) problems.push(`message ${m.id} differs`);
  }
  const myParts = new Map(rows.parts.map((p) => [p.id, p]));
  if (parts.length !== rows.parts.length) problems.push(`parts: import ${parts.length}, direct ${rows.parts.length}`);
  for (const p of parts) {
    const other = myParts.get(p.id);
    if (!other || other.message_id !== p.message_id || !same(other.data, p.data)) problems.push(`part ${p.id} differs`);
  }
  return problems.slice(0, 10);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** The harness's host environment; never the Bun mode a bench runs in. */
function importEnv(root: string): NodeJS.ProcessEnv {
  const env = hostEnv(root, {});
  delete env.BUN_BE_BUN;
  return env;
}

/** Marks a git project so the host files its sessions under the bench's project id. */
export function pinProjectId(projectDir: string): void {
  writeFileSync(join(projectDir, ".git", "opencode"), BENCH_PROJECT_ID);
}

/** Builds the scratch data folder once (under ~/.cache) and returns it; later calls reuse it. */
export async function benchData(log: (line: string) => void): Promise<BenchData> {
  const files = readdirSync(corpusDir())
    .filter((f) => f.endsWith(".json.gz"))
    .sort();
  const base = process.env.ENGRAM_BENCH_CACHE ?? join(homedir(), ".cache", "opencode-engram-bench");
  const dir = join(base, cacheKey(files));
  const ready = join(dir, "ready.json");
  if (existsSync(ready)) return { ...(JSON.parse(readFileSync(ready, "utf8")) as Omit<BenchData, "xdgData">), xdgData: join(dir, "data") };

  const building = `${dir}.partial-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  for (const d of ["home", "config", "data", "cache", "state", "project", "files"]) mkdirSync(join(building, d), { recursive: true });
  const project = join(building, "project");
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: project });
  pinProjectId(project);
  log(`building the bench data folder ${dir} (once)`);

  const sessions: ExportedSession[] = [];
  const generated: BenchData["generated"] = {};
  let seed = 11;
  for (const n of GENERATED) {
    const id = `ses_0bench${String(n).padStart(6, "0")}gen`;
    const session = hostJson(generateSession({ messages: n, seed: seed++, hugeOutputs: Math.round(n / 200), sessionId: id }), id, `generated ${n} messages`);
    generated[String(n)] = { id, mb: textBytes(session) / 1e6 };
    sessions.push(session);
  }
  const corpus: string[] = [];
  let corpusBytes = 0;
  for (const file of files) {
    const session = JSON.parse(gunzipSync(readFileSync(join(corpusDir(), file))).toString("utf8")) as ExportedSession;
    corpus.push(session.info.id);
    corpusBytes += textBytes(session);
    sessions.push(session);
  }

  // The first corpus session through the real import: it creates the database and the project.
  const sample = sessions[GENERATED.length]!;
  const sampleFile = join(building, "files", "sample.json");
  writeFileSync(sampleFile, JSON.stringify(sample));
  const started = performance.now();
  execFileSync(resolveOpencodeBinary(), ["import", sampleFile], { cwd: project, env: importEnv(building), stdio: "ignore" });
  log(`  opencode import of one session: ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const db = await openDb(join(building, "data", "opencode", "opencode.db"));
  const problems = compareWithImport(db, rowsOf(sample, project));
  if (problems.length > 0) log(`  WARNING: direct rows differ from opencode import's:\n    ${problems.join("\n    ")}`);
  else log("  direct rows match opencode import's for the sample session");
  const insertStart = performance.now();
  const now = Date.now();
  db.transaction(() => {
    for (const session of sessions) if (session !== sample) insert(db, rowsOf(session, project), now);
  })();
  db.close();
  log(`  ${sessions.length - 1} sessions inserted directly in ${((performance.now() - insertStart) / 1000).toFixed(1)} s`);

  const data = { generated, corpus, corpusMb: corpusBytes / 1e6 };
  writeFileSync(join(building, "ready.json"), JSON.stringify(data));
  rmSync(join(building, "files"), { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
  renameSync(building, dir);
  return { ...data, xdgData: join(dir, "data") };
}
