// The store's projection in the real host: built in the background into the cache folder, kept
// current while the store changes under it (a new message found, a deleted session gone),
// built again when deleted or corrupted (the corrupt file quarantined), and turned off by config;
// in every state, global searches give the right sessions.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startHost, type Host } from "./harness/host.ts";
import { onOpenCode2 } from "./harness/hosts.ts";

type Json = Record<string, any>;

let host: Host;
let runner: string;
const sessions: Record<string, string> = {};

const cacheFolder = () => join(host.root, "cache", "opencode-engram");
const projectionFile = (): string | undefined => {
  const name = existsSync(cacheFolder()) ? readdirSync(cacheFolder()).find((entry) => /^projection-[0-9a-f]+\.sqlite$/.test(entry)) : undefined;
  return name && join(cacheFolder(), name);
};
const sql = (file: string, query: string): string => execFileSync("sqlite3", [file, query], { encoding: "utf8" }).trim();
const storeSessions = (): number => Number(sql(join(host.dataDir, "opencode.db"), `SELECT count(*) FROM ${host.generation === 1 ? "session" : "session_v2"}`));
/** Sessions the projection holds complete (0 while there is no file). */
function projected(): number {
  const file = projectionFile();
  if (!file) return 0;
  try {
    return Number(sql(file, "SELECT count(*) FROM session"));
  } catch {
    return 0; // being written, or not a database yet
  }
}

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 240; attempt++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`timed out waiting for ${what}\n${host.logs().slice(-3000)}`);
}

/** The background passes have caught up: every session of the store projected (the runner's own turn may be one behind). */
const caughtUp = () => waitFor(() => projected() >= storeSessions() - 1 && projected() > 0, "the projection to catch up");

async function globalSessions(query: string): Promise<string[]> {
  const result = await host.callTool(runner, "history_search", { query, scope: "global" });
  expect(result.error, query).toBeUndefined();
  // An answer without matches leaves `messages` out (empty fields are omitted).
  return [...new Set((((result.output as Json).messages ?? []) as Json[]).map((m) => m.session_id as string))].sort();
}

beforeAll(async () => {
  host = await startHost({
    globalEngramConfig: JSON.stringify({ projection: { min_sessions: 2 } }),
    // Global scope asks before reading other projects; here every session is in one project. (1.x's
    // `permission` map, OpenCode 2's `permissions` rules.)
    config: onOpenCode2
      ? { permissions: [{ action: "engram_other_projects", resource: "*", effect: "allow" }] }
      : { permission: { "*": "allow", doom_loop: "allow", external_directory: "allow", engram_other_projects: "allow" } },
  });
  for (const [name, text] of Object.entries({
    alpha: "The zebrafinch cache keeps ten entries.",
    beta: "The marmoset worker retries three times.",
    gamma: "The capybara queue drains every minute.",
    delta: "The zebrafinch cache was cleared on deploy.",
  })) {
    sessions[name] = (await host.createSession()).id;
    host.mock.push({ text: `Noted: ${text}` });
    await host.prompt(sessions[name]!, text);
  }
  runner = (await host.createSession()).id;
}, 240_000);

afterAll(async () => {
  await host?.stop();
});

describe("projection", () => {
  test("is built in the background into the cache folder, and global searches find the right sessions", async () => {
    await globalSessions("zebrafinch"); // the first search names a session: passes start if no event did
    await caughtUp();
    expect(projectionFile()).toBeDefined();
    expect(await globalSessions("zebrafinch")).toEqual([sessions.alpha, sessions.delta].sort());
    expect(await globalSessions("marmoset")).toEqual([sessions.beta]);
    // Built by the build thread (build-worker.ts in a Worker), not by passes on the host's thread.
    expect(host.logs()).not.toContain("building on the host's thread instead");
  });

  test("sees the store change under it: a new message found, a deleted session gone", async () => {
    host.mock.push({ text: "Noted: the quokka flag is on." });
    await host.prompt(sessions.gamma!, "Turn on the quokka flag.");
    expect(await globalSessions("quokka")).toEqual([sessions.gamma]);
    await host.deleteSession(sessions.beta!);
    expect(await globalSessions("marmoset")).toEqual([]);
    await caughtUp();
    expect(await globalSessions("quokka")).toEqual([sessions.gamma]);
    expect(await globalSessions("marmoset")).toEqual([]);
  });

  test("deleted, it is built again; answers stay right meanwhile", async () => {
    const file = projectionFile()!;
    for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
    expect(await globalSessions("zebrafinch")).toEqual([sessions.alpha, sessions.delta].sort());
    await caughtUp();
    expect(existsSync(file)).toBe(true);
    expect(await globalSessions("zebrafinch")).toEqual([sessions.alpha, sessions.delta].sort());
  });

  test("corrupted, it is quarantined and built again, never a crash", async () => {
    const file = projectionFile()!;
    // A fresh instance opens the file: the one running keeps its pages cached. Its dispose closes
    // the file (checkpointing the WAL into it), so the damage is done after that.
    await host.disposeInstance();
    // 1.x logs the plugin's dispose; OpenCode 2's eviction answers once the location (and so the
    // plugin's dispose) is done, and the plugin logs nothing there.
    if (host.generation === 1) await waitFor(() => /disposed: regex worker ended/.test(host.logs()), "the instance to be disposed");
    for (const suffix of ["-wal", "-shm"]) rmSync(file + suffix, { force: true });
    writeFileSync(file, "not a database at all ".repeat(1000));
    expect(await globalSessions("zebrafinch")).toEqual([sessions.alpha, sessions.delta].sort());
    await waitFor(() => readdirSync(cacheFolder()).some((entry) => entry.includes(".corrupt-")), "the corrupt file to be quarantined");
    await caughtUp();
    expect(await globalSessions("capybara")).toEqual([sessions.gamma]);
  });

  test("turned off by config: no more passes, searches read every session and stay right", async () => {
    host.writeFile("opencode-engram.jsonc", JSON.stringify({ projection: { enable: false } }));
    await new Promise((resolve) => setTimeout(resolve, 2500)); // the config is re-read at most every 2 s
    await globalSessions("zebrafinch"); // reads the new config
    const before = projected();
    const extra = (await host.createSession()).id;
    host.mock.push({ text: "Noted: the ocelot job is paused." });
    await host.prompt(extra, "Pause the ocelot job.");
    expect(await globalSessions("ocelot")).toEqual([extra]);
    await new Promise((resolve) => setTimeout(resolve, 12_000)); // longer than a pass interval
    expect(projected()).toBe(before);
    expect(await globalSessions("zebrafinch")).toEqual([sessions.alpha, sessions.delta].sort());
  });
});
