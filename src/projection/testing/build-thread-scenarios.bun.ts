// Run in the host's Bun by build-thread.test.ts (runInBun): the plugin's projection with its
// passes on a real build thread (build-worker.ts in a worker_threads Worker) over an OpenCode 2
// store: built by the thread, answers as reading every session gives them, a session the host
// marks read until the thread projects it again, the thread closed on dispose; and the thread
// giving way while one of our tools runs on the host's thread, never past its bound.

import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { createSearchService, type SearchService } from "../../search/api.ts";
import { CHUNK_STRIDE, TERM_CHUNK_STRIDE } from "../../search/projection-contract.ts";
import { CachedHistorySource } from "../../store/cached-source.ts";
import { storeSessions } from "../../store/store-file.ts";
import { scenarioStore, searchAnswers, seedWordSessions } from "./projection-answers.ts";
import { answer } from "../../store/testing/run-in-bun.ts";
import { V2StoreBuilder } from "../../store/v2/testing/v2-store.ts";
import { ToolCalls } from "../tool-calls.ts";
import { ThreadedProjection, type ThreadedProjectionOptions } from "../build-thread.ts";
import { readerFeed } from "../feed.ts";
import { scratchDir } from "../../util/testing/scratch-dir.ts";
import { DEFAULT_TUNING } from "../../search/projection-contract.ts";

const root = scratchDir("build-thread");
const dataDir = join(root, "data");
mkdirSync(dataDir);

const builder = await V2StoreBuilder.create(join(dataDir, "opencode.db"), "opencode-2");
const SESSIONS = 24;
seedWordSessions(builder, SESSIONS, 11, (s) => ({ id: `ses_t${String(s).padStart(3, "0")}`, projectId: "prj_a", directory: "/a" }));

const { store, config, visibility } = await scenarioStore(dataDir);
const reader = store.reader;
/** Sessions the services read whole. */
let reads = 0;
const counted = {
  ...reader,
  readAll(id: string, options?: object) {
    reads++;
    return reader.readAll(id, options);
  },
};
const log: string[] = [];

let caches = 0;
/** The plugin's projection of the store, in a cache folder of its own, giving way to `toolCalls`. */
function threaded(extra: Pick<ThreadedProjectionOptions, "toolCalls" | "pace"> = {}): ThreadedProjection {
  return new ThreadedProjection({
    feed: readerFeed(reader, store.decode),
    generation: "opencode-2",
    showTools: () => ({ input: config.show_tool_input, output: config.show_tool_output }),
    enabled: () => true,
    visibilityKey: () => "default",
    tuning: DEFAULT_TUNING,
    log: (level, message) => log.push(`${level}: ${message}`),
    dir: join(root, `cache-${++caches}`),
    intervalMs: 3_600_000,
    ...extra,
  });
}
const projection = threaded();

/** One of our tools running on `calls` until `end` is called. */
function runningCall(calls: ToolCalls): { end: () => void; done: Promise<void> } {
  let end = () => {};
  const done = calls.during(() => new Promise<void>((resolve) => (end = resolve)));
  return { end, done };
}

function service(finder?: ThreadedProjection): SearchService {
  const source = new CachedHistorySource<unknown>(counted, { checkSize: 20, maxSingleReads: 50, maxBytes: 1 << 26 }, store.decode);
  return createSearchService({ source, config: () => config, visibility: () => visibility, ...(finder ? { finder } : {}) });
}

/** Turns of the event loop until `check` holds (at most `turns` of 20 ms). */
async function until(check: () => boolean, turns = 1500): Promise<boolean> {
  for (let turn = 0; turn < turns && !check(); turn++) await new Promise((resolve) => setTimeout(resolve, 20));
  return check();
}

/** Sessions a global search for `query` reads, and which sessions it answers with. */
async function globalSearch(query: string): Promise<{ read: number; sessions: string[] }> {
  const before = reads;
  const found = await service(projection).search({ query, callerSessionId: "", scope: "global", types: ["text"] });
  return { read: reads - before, sessions: [...new Set(found.results.map((result) => result.sessionId))].sort() };
}

let narrowing = false;
let lastNarrowed = true;
/** Whether the projection has a search of `token` read the session (its answer of the last turn: narrow is asynchronous). */
function narrowedReads(id: string, token: string): boolean {
  if (!narrowing) {
    narrowing = true;
    void storeSessions(store).then(async (sessions) => {
      const narrowed = await projection.narrow(sessions, [{ token, group: 0, cjk: false, weight: 1 }], new Set());
      lastNarrowed = narrowed === undefined || narrowed.search.some((session) => session.id === id);
      narrowing = false;
    });
  }
  return lastNarrowed;
}

await answer(async () => {
  const out: Record<string, unknown> = {};
  projection.observe("ses_t001");
  out.built = await until(() => projection.status().total === SESSIONS && projection.status().projected === SESSIONS);
  out.file = projection.status().file !== undefined;
  // A holder's chunk table read back from the SQLite file: its chunks' messages are the session's own.
  const narrowed = await projection.narrow(await storeSessions(store), [{ token: "build", group: 0, cjk: false, weight: 1 }], new Set());
  out.tables = true;
  for (const [id, holder] of narrowed?.projected ?? []) {
    const ids = new Set((await readerFeed(reader, store.decode).messages(id, {})).map((message) => message.id));
    const table = holder.table();
    const list = holder.termChunks()[0]!;
    for (let c = 0; c < list.length; c += TERM_CHUNK_STRIDE) {
      const at = list[c]! * CHUNK_STRIDE;
      // The chunk's message as the table keeps it, and its length and message as the posting does.
      out.tables &&=
        ids.has(table.message(table.chunks[at]!).id) && table.chunks[at]! === list[c + 3]! && table.chunks[at + 3]! - table.chunks[at + 2]! === list[c + 2]!;
    }
  }
  out.holders = narrowed?.projected.size ?? 0;
  const [plain, projected] = [await searchAnswers(service(), "ses_t001"), await searchAnswers(service(projection), "ses_t001")];
  out.same = JSON.stringify(plain) === JSON.stringify(projected);
  out.rare = await globalSearch("wombatword");

  // A new message the host announces: read at once, found; projected again by the thread, then left unread by a search it does not match.
  builder.message("ses_t004", "assistant", { content: [{ type: "text", text: "wombatword landed" }] });
  projection.markDirty("ses_t004");
  out.marked = await globalSearch("wombatword");
  out.markedOther = await globalSearch("quokkaword");
  out.settled = await until(() => !narrowedReads("ses_t004", "quokkaword"));
  out.settledOther = await globalSearch("quokkaword");
  out.settledFound = await globalSearch("wombatword");
  out.sameAfter = JSON.stringify(await searchAnswers(service(), "ses_t001")) === JSON.stringify(await searchAnswers(service(projection), "ses_t001"));
  const file = projection.status().file!;
  await projection.close();
  // Every connection closed for good: the last one wrote the WAL back into the file and removed it.
  out.walLeft = !(await until(() => !existsSync(`${file}-wal`), 100));

  // A tool call running on this thread: the Worker reads the shared counts and gives way; a
  // projection beside it, giving way to nothing running, is built meanwhile.
  const calls = new ToolCalls();
  const call = runningCall(calls);
  const held = threaded({ toolCalls: calls });
  held.observe("ses_t001");
  out.paceHeld = await until(() => calls.held() > 0);
  const beside = threaded({ toolCalls: new ToolCalls() });
  beside.observe("ses_t001");
  out.paceBesideBuilt = await until(() => beside.status().projected === SESSIONS);
  out.paceWhileBusy = held.status().projected;
  call.end();
  await call.done;
  out.paceAfter = await until(() => held.status().projected === SESSIONS);
  await Promise.all([held.close(), beside.close()]);

  // A call that never ends: one slice after each bounded hold, built all the same.
  const forever = new ToolCalls();
  const endless = runningCall(forever);
  const bounded = threaded({ toolCalls: forever, pace: { graceMs: 100, maxHoldMs: 50 } });
  bounded.observe("ses_t001");
  out.boundedBuilt = await until(() => bounded.status().projected === SESSIONS);
  out.boundedRunning = forever.running();
  out.boundedHolds = forever.held();
  endless.end();
  await bounded.close();
  out.log = log;
  return out;
});
