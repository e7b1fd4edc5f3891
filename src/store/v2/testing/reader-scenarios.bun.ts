// Run in the host's Bun by sqlite-reader.test.ts (runInBun): builds OpenCode 2-shaped stores and
// reports what the OpenCode 2 reader, the cache over it and the generation check make of them.

import { join } from "node:path";
import { CachedHistorySource } from "../../cached-source.ts";
import type { MessageReads, SessionStamp } from "../../reader.ts";
import { readerOver } from "../../sqlite-reader.ts";
import { openReadOnly, openWritable, type Database } from "../../sqlite.ts";
import { openV2Reader, storeGeneration } from "../../store-file.ts";
import { answer } from "../../testing/run-in-bun.ts";
import { V2_DECODE } from "../map.ts";
import type { V2Reader } from "../sqlite-reader.ts";
import { V2StoreBuilder, type StoreShape } from "./v2-store.ts";
import { scratchDir } from "../../../util/testing/scratch-dir.ts";

const text = (value: string) => ({ type: "text", text: value });

async function store(shape: StoreShape): Promise<{ dir: string; builder: V2StoreBuilder }> {
  const dir = scratchDir("v2");
  return { dir, builder: await V2StoreBuilder.create(join(dir, "opencode.db"), shape) };
}

/** A whole-session read counting the pauses it offers, and the same read cancelled before it starts. */
async function readWhole<Raw>(reader: MessageReads<Raw>, sessionId: string): Promise<{ all: Raw[]; pauses: number; stopped: string }> {
  let pauses = 0;
  const all = await reader.readAll(sessionId, {
    pause: () => {
      pauses++;
      return Promise.resolve();
    },
  });
  const cancelled = new AbortController();
  cancelled.abort(new Error("cancelled"));
  const stopped = await reader.readAll(sessionId, { signal: cancelled.signal }).then(
    () => "read",
    (error: Error) => error.message,
  );
  return { all, pauses, stopped };
}

async function reads(): Promise<unknown> {
  const { dir, builder } = await store("opencode-2");
  builder.session({ id: "ses_a1", projectId: "prj_a", directory: "/work/a", title: "Limiter" });
  builder.session({ id: "ses_a2", projectId: "prj_a", directory: "/work/a", parentId: "ses_a1", agent: "general" });
  builder.session({ id: "ses_b1", projectId: "prj_b", directory: "/work/b" });
  // Ids that sort against the seq order (a fork's copies are msg_<event>_<seq>).
  builder.message("ses_a1", "user", { text: "first" }, "msg_fork_9");
  builder.message("ses_a1", "agent-switched", { agent: "build" }, "msg_fork_10");
  builder.message("ses_a1", "assistant", { agent: "build", content: [text("second")] }, "msg_fork_100");
  builder.message("ses_a1", "user", { text: "third" }, "msg_aaa");
  builder.close();
  const reader = await openV2Reader(dir, "ses_a2");
  if (typeof reader === "string") return { error: reader };
  const { all, pauses, stopped } = await readWhole(reader, "ses_a1");
  const source = new CachedHistorySource(reader, { checkSize: 20, maxSingleReads: 50, maxBytes: 1 << 24 }, V2_DECODE);
  const result = {
    projectId: reader.projectId,
    ids: all.map((row) => row.id),
    pauses,
    stopped,
    seqs: all.map((row) => row.seq),
    newest: (await reader.readNewest("ses_a1", 2)).map((row) => row.id),
    one: (await reader.readOne("ses_a1", "msg_fork_100"))?.data,
    missing: (await reader.readOne("ses_a1", "msg_none")) ?? null,
    mapped: (await source.loadMessages("ses_a1")).map((message) => message.id),
    project: (await source.listSessions()).map((session) => session.id).sort(),
    every: (await source.listEverySession("ses_a2")).map((session) => session.id).sort(),
    child: await source.getSession("ses_a2"),
    stored: await reader.storedSession("ses_b1"),
    absent: (await reader.getSession("ses_none")) ?? null,
    otherProbe: typeof (await openV2Reader(dir, "ses_none")) === "string" ? "refused" : "opened",
    scoped: await scopedTo(dir),
  };
  await reader.close();
  return result;
}

async function scopedTo(dir: string): Promise<string[]> {
  const reader = (await openV2Reader(dir, "ses_a1", "prj_b")) as V2Reader;
  const ids = (await reader.listSessions()).map((session) => session.id);
  await reader.close();
  return ids;
}

/** A cached session kept current as rows are added, rewritten in place and removed. */
async function refresh(): Promise<unknown> {
  const { dir, builder } = await store("opencode-2");
  builder.session({ id: "ses_r", projectId: "prj_r", directory: "/work/r" });
  builder.message("ses_r", "user", { text: "question" });
  const answerId = builder.message("ses_r", "assistant", { agent: "build", content: [text("draft")] });
  const reader = (await openV2Reader(dir, "ses_r")) as V2Reader;
  let wholeReads = 0;
  const counted: V2Reader = {
    ...reader,
    readAll: (sessionId, options) => {
      wholeReads++;
      return reader.readAll(sessionId, options);
    },
  };
  const source = new CachedHistorySource(counted, { checkSize: 20, maxSingleReads: 50, maxBytes: 1 << 24 }, V2_DECODE);
  const texts = async () =>
    (await source.loadMessages("ses_r")).map((message) => message.parts.map((part) => (part.kind === "text" ? part.text : part.kind)).join("+"));
  const steps: Record<string, unknown> = {};
  steps.first = await texts();
  const firstList = await source.loadMessages("ses_r");
  steps.unchangedKeepsList = firstList === (await source.loadMessages("ses_r"));
  const followUp = builder.message("ses_r", "user", { text: "follow-up" });
  steps.added = await texts();
  steps.oneFromList = (await source.loadMessage("ses_r", answerId)) === (await source.loadMessages("ses_r"))[1];
  builder.update("ses_r", answerId, { content: [text("draft, finished"), text("and more")], time: { created: 1, completed: 2 } });
  const one = await source.loadMessage("ses_r", answerId);
  steps.oneStreamed = one?.parts.map((part) => (part.kind === "text" ? part.text : part.kind)).join("+");
  steps.streamed = await texts();
  steps.readsBeforeRemoval = wholeReads;
  builder.remove("ses_r", [followUp]);
  steps.reverted = await texts();
  steps.wholeReads = wholeReads;
  builder.close();
  await reader.close();
  return steps;
}

async function generations(): Promise<unknown> {
  const out: Record<string, string> = {};
  for (const shape of ["opencode-1", "opencode-2", "opencode-2-with-1x"] as const) {
    const { dir, builder } = await store(shape);
    builder.close();
    const db = (await openReadOnly(join(dir, "opencode.db")))!;
    out[shape] = storeGeneration(db);
    db.close();
    if (shape === "opencode-1") {
      const refused = await openV2Reader(dir, "ses_x");
      out.v2ReaderOn1x = typeof refused === "string" ? refused : "opened";
    }
  }
  out.unknown = await rawStore("CREATE TABLE something (id text)", async (db) => storeGeneration(db));
  // OpenCode 2's tables without a column the reader needs.
  out.v2WithoutColumn = await rawStore(
    "CREATE TABLE session_v2 (id text, project_id text, parent_id text, title text, directory text, time_created integer, time_updated integer); CREATE TABLE session_message (id text, session_id text, type text, seq integer, time_created integer, time_updated integer, data text)",
    async (_, dir) => String(await openV2Reader(dir, "ses_x")),
  );
  return out;
}

/** A store written by hand (`sql`), read back through `read`. */
async function rawStore(sql: string, read: (db: Database, dir: string) => Promise<string>): Promise<string> {
  const dir = scratchDir("v2-raw");
  const specifier = "bun:sqlite";
  const module = (await import(/* @vite-ignore */ specifier)) as { Database: new (path: string) => { exec(sql: string): void; close(): void } };
  const raw = new module.Database(join(dir, "opencode.db"));
  raw.exec(sql);
  raw.close();
  const db = (await openReadOnly(join(dir, "opencode.db")))!;
  const verdict = await read(db, dir);
  db.close();
  return verdict;
}

/** A reader's stamps of many sessions at once, and each one's own, as plain data to compare. */
async function stampsBothWays(
  reader: { stamp(id: string): Promise<SessionStamp>; stamps(ids: readonly string[]): Promise<Map<string, SessionStamp>> },
  ids: string[],
): Promise<{ many: Record<string, SessionStamp>; each: Record<string, SessionStamp> }> {
  const many = Object.fromEntries(await reader.stamps([...ids, "ses_none"]));
  const each: Record<string, SessionStamp> = {};
  for (const id of ids) each[id] = { ...(await reader.stamp(id)) };
  return { many, each };
}

/** Both generations' readers: many stamps in one statement against one at a time, as the store changes. */
async function stamps(): Promise<unknown> {
  const v2 = await store("opencode-2");
  v2.builder.session({ id: "ses_s1", projectId: "prj_s", directory: "/work/s" });
  v2.builder.session({ id: "ses_s2", projectId: "prj_s", directory: "/work/s" });
  v2.builder.message("ses_s1", "user", { text: "question" });
  const draft = v2.builder.message("ses_s2", "assistant", { agent: "build", content: [text("draft")] });
  const reader = (await openV2Reader(v2.dir, "ses_s1")) as V2Reader;
  const ids = ["ses_s1", "ses_s2"];
  const steps: unknown[] = [await stampsBothWays(reader, ids)];
  v2.builder.message("ses_s1", "assistant", { agent: "build", content: [text("answer")] });
  steps.push(await stampsBothWays(reader, ids));
  v2.builder.update("ses_s2", draft, { content: [text("draft, finished")], time: { created: 1, completed: 2 } });
  steps.push(await stampsBothWays(reader, ids));
  v2.builder.remove("ses_s2", [draft]);
  steps.push(await stampsBothWays(reader, ids));
  v2.builder.close();
  await reader.close();

  const v1 = await store("opencode-1");
  v1.builder.legacySession("ses_l1", "/work/l", "first");
  v1.builder.legacySession("ses_l2", "/work/l", "second");
  const db = (await openReadOnly(join(v1.dir, "opencode.db")))!;
  const legacy = readerOver(db);
  const legacySteps: unknown[] = [await stampsBothWays(legacy, ["ses_l1", "ses_l2"])];
  v1.builder.legacySession("ses_l3", "/work/l", "third");
  legacySteps.push(await stampsBothWays(legacy, ["ses_l1", "ses_l2", "ses_l3"]));
  v1.builder.close();
  legacy.close();
  return { v2: steps, v1: legacySteps };
}

/**
 * The 1.x reader over the 1.x tables: a session whose parts were written out of their ids' order,
 * one message's interleaved with another's, and one message of more rows and bytes than a query
 * fetches; then the same store without the part table's session index.
 */
async function legacyReads(): Promise<unknown> {
  const { dir, builder } = await store("opencode-1");
  builder.legacySession("ses_l1", "/work/l", "first");
  builder.legacySession("ses_l2", "/work/l", "other");
  builder.legacyMessage("ses_l1", "msg_m2", 2, "assistant");
  builder.legacyMessage("ses_l1", "msg_m3", 3, "user");
  builder.legacyPart("ses_l1", "msg_m2", "prt_b", "m2 b");
  builder.legacyPart("ses_l2", "msg_other", "prt_o", "other session");
  builder.legacyPart("ses_l1", "msg_m3", "prt_z", "m3 z");
  builder.legacyPart("ses_l1", "msg_m2", "prt_a", "m2 a");
  for (let i = 0; i < 600; i++) builder.legacyPart("ses_l1", "msg_m3", `prt_y${String(599 - i).padStart(3, "0")}`, "x".repeat(2000));
  builder.legacyPart("ses_l1", "msg_gone", "prt_g", "a part of no message read");
  builder.close();
  const path = join(dir, "opencode.db");
  const db = (await openReadOnly(path))!;
  const reader = readerOver(db);
  const { all, pauses, stopped } = await readWhole(reader, "ses_l1");
  const parts = (raw: (typeof all)[number]) => (raw.parts as { id: string; messageID: string; text: string }[]).map((part) => part.id);
  const result = {
    messages: all.map((raw) => (raw.info as { id: string }).id),
    firstParts: all.map((raw) => parts(raw).slice(0, 3)),
    counts: all.map((raw) => raw.parts.length),
    sorted: all.every((raw) => parts(raw).every((id, i, list) => i === 0 || list[i - 1]! < id)),
    owners: all.every((raw) => (raw.parts as { messageID: string }[]).every((part) => part.messageID === (raw.info as { id: string }).id)),
    pauses,
    stopped,
    generation: storeGeneration(db),
  };
  reader.close();
  const writable = (await openWritable(path))!;
  writable.exec("DROP INDEX part_session_idx");
  writable.close();
  const unindexed = (await openReadOnly(path))!;
  const withoutIndex = storeGeneration(unindexed);
  unindexed.close();
  return { ...result, withoutIndex };
}

/**
 * The 1.x reader over a session of more messages than one query reads: the event loop is offered a
 * turn between the message queries, so a message written at the first turn is read by the next.
 */
async function legacyPages(): Promise<unknown> {
  const { dir, builder } = await store("opencode-1");
  builder.legacySession("ses_long", "/work/l", "long");
  for (let i = 0; i < 1_200; i++) builder.legacyMessage("ses_long", `msg_${String(i).padStart(4, "0")}`, 10 + i, i % 2 === 0 ? "user" : "assistant");
  const db = (await openReadOnly(join(dir, "opencode.db")))!;
  const reader = readerOver(db);
  let turns = 0;
  const all = await reader.readAll("ses_long", {
    pause: () => {
      if (turns++ === 0) builder.legacyMessage("ses_long", "msg_late", 5_000, "user");
      return Promise.resolve();
    },
  });
  const ids = all.map((raw) => (raw.info as { id: string }).id);
  builder.close();
  reader.close();
  return { numbered: ids.filter((id) => /^msg_\d{4}$/.test(id)), late: ids.includes("msg_late") };
}

const SCENARIOS: Record<string, () => Promise<unknown>> = { reads, refresh, generations, stamps, legacyReads, legacyPages };

await answer(async (name: string) => SCENARIOS[name]!());
