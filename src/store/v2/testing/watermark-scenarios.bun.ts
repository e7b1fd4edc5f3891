// Run in the host's Bun by watermark.test.ts (runInBun): the store-wide watermark of both
// generations' readers over stores shaped like the host's, as they are written the host's ways.

import { join } from "node:path";
import { readerOver } from "../../sqlite-reader.ts";
import { openReadOnly, type Database } from "../../sqlite.ts";
import { answer } from "../../testing/run-in-bun.ts";
import { MAX_ROWS_SINCE, type StoreWatermark, watermarkSql, type WatermarkTables } from "../../watermark.ts";
import { v2ReaderOver } from "../sqlite-reader.ts";
import { V2StoreBuilder, type StoreShape } from "./v2-store.ts";
import { scratchDir } from "../../../util/testing/scratch-dir.ts";

async function store(shape: StoreShape): Promise<{ builder: V2StoreBuilder; db: Database }> {
  const path = join(scratchDir("watermark"), "opencode.db");
  const builder = await V2StoreBuilder.create(path, shape);
  return { builder, db: (await openReadOnly(path))! };
}

/** Each write's effect: whether the mark moved, and the sessions named since the mark before it. */
async function steps(marks: StoreWatermark, writes: Record<string, () => void>): Promise<Record<string, { moved: boolean; named: string[] | null }>> {
  const out: Record<string, { moved: boolean; named: string[] | null }> = {};
  let before = await marks.watermark();
  for (const [name, write] of Object.entries(writes)) {
    write();
    const after = await marks.watermark();
    out[name] = { moved: after !== before, named: (await marks.sessionsChangedSince(before))?.sort() ?? null };
    before = after;
  }
  return out;
}

/** Each watermark query's plan, one line per step. */
function plans(db: Database, tables: WatermarkTables): string[][] {
  const sql = watermarkSql(tables);
  const queries = [...sql.history.flatMap((table) => [table.top, table.idAt, table.since]), sql.sessionFacts, sql.sessionsAfter];
  return queries.map((query) => (db.query(`EXPLAIN QUERY PLAN ${query}`).all(1) as { detail: string }[]).map((row) => row.detail));
}

async function v1(): Promise<unknown> {
  const { builder, db } = await store("opencode-1");
  // Imported sessions: rows, no events.
  builder.legacySession("ses_l1", "/work/l", "first");
  builder.legacySession("ses_l2", "/work/l", "second");
  builder.legacyMessage("ses_l1", "msg_m1", 5, "user");
  builder.legacyPart("ses_l1", "msg_m1", "prt_p1", "one");
  builder.legacyPart("ses_l1", "msg_m1", "prt_p2", "two");
  const reader = readerOver(db);
  const marks = reader as Required<Pick<typeof reader, "watermark" | "sessionsChangedSince">>;
  const first = await marks.watermark();
  const foreign = JSON.stringify({ ...JSON.parse(first), generation: "opencode-2" });
  const result = {
    available: typeof reader.watermark === "function",
    unchanged: { same: (await marks.watermark()) === first, named: await marks.sessionsChangedSince(first) },
    steps: await steps(marks, {
      partAppended: () => builder.legacyPart("ses_l1", "msg_m1", "prt_p3", "three"),
      messageUpdated: () => {
        builder.legacyEvent("ses_l2", "message.updated.1");
        builder.run("UPDATE message SET data = ? WHERE session_id = ?", JSON.stringify({ role: "user", time: { created: 1, completed: 2 } }), "ses_l2");
      },
      eventAlone: () => builder.legacyEvent("ses_l2", "message.part.removed.1"),
      partStreamed: () => builder.legacyRewritePart("ses_l1", "prt_p1", "one, streamed", true),
      imported: () => builder.legacySession("ses_l3", "/work/l", "third"),
      rewrittenWithoutEvent: () => builder.legacyRewritePart("ses_l1", "prt_p2", "two, imported again", false),
      // None of its rows or events is the newest of its table: only the session count tells.
      sessionDeleted: () => {
        for (const table of ["part", "message"]) builder.run(`DELETE FROM ${table} WHERE session_id = 'ses_l2'`);
        builder.run("DELETE FROM event WHERE aggregate_id = 'ses_l2'");
        builder.run("DELETE FROM session WHERE id = 'ses_l2'");
      },
      newestRowReused: () => {
        builder.run("DELETE FROM part WHERE rowid = (SELECT max(rowid) FROM part)");
        builder.legacyPart("ses_l1", "msg_m1", "prt_p4", "four");
      },
      tooMuchSince: () =>
        builder.run(
          "INSERT INTO part (rowid, id, message_id, session_id, time_created, time_updated, data) VALUES ((SELECT max(rowid) FROM part) + ?, 'prt_far', 'msg_m1', 'ses_l1', 1, 1, '{}')",
          MAX_ROWS_SINCE + 1,
        ),
      afterThat: () => builder.legacyPart("ses_l3", "msg_m3", "prt_p5", "five"),
    }),
    foreign: (await marks.sessionsChangedSince(foreign)) ?? null,
    garbage: (await marks.sessionsChangedSince("not a mark")) ?? null,
    plans: plans(db, {
      generation: "opencode-1",
      sessions: "session",
      history: [
        { table: "event", session: "aggregate_id" },
        { table: "message", session: "session_id" },
        { table: "part", session: "session_id" },
      ],
    }),
  };
  builder.close();
  reader.close();
  return result;
}

async function v2(): Promise<unknown> {
  const { builder, db } = await store("opencode-2");
  builder.session({ id: "ses_s1", projectId: "prj_s", directory: "/work/s" });
  builder.session({ id: "ses_s2", projectId: "prj_s", directory: "/work/s" });
  builder.message("ses_s1", "user", { text: "question" });
  const reply = builder.message("ses_s2", "assistant", { agent: "build", content: [{ type: "text", text: "draft" }] });
  const reader = v2ReaderOver(db, "prj_s");
  const marks = reader as Required<Pick<typeof reader, "watermark" | "sessionsChangedSince">>;
  const first = await marks.watermark();
  const result = {
    unchanged: { same: (await marks.watermark()) === first, named: await marks.sessionsChangedSince(first) },
    steps: await steps(marks, {
      messageAppended: () => builder.message("ses_s1", "assistant", { agent: "build", content: [] }),
      messageStreamed: () => builder.update("ses_s2", reply, { content: [{ type: "text", text: "draft, finished" }] }),
      reverted: () => builder.remove("ses_s2", [reply]),
      answered: () => builder.message("ses_s1", "user", { text: "follow-up" }),
      // None of its rows or events is the newest of its table: only the session count tells.
      sessionDeleted: () => {
        builder.run("DELETE FROM event WHERE aggregate_id = 'ses_s2'");
        builder.run("DELETE FROM session_v2 WHERE id = 'ses_s2'");
      },
    }),
    plans: plans(db, {
      generation: "opencode-2",
      sessions: "session_v2",
      history: [
        { table: "event", session: "aggregate_id" },
        { table: "session_message", session: "session_id" },
      ],
    }),
  };
  builder.close();
  await reader.close();
  return result;
}

/** OpenCode 2 tables without the event journal: no watermark. */
async function v2WithoutEvents(): Promise<unknown> {
  const { builder, db } = await store("opencode-2");
  builder.run("DROP TABLE event");
  const reader = v2ReaderOver(db, "prj_s");
  const available = typeof reader.watermark === "function";
  builder.close();
  await reader.close();
  return { available };
}

const SCENARIOS: Record<string, () => Promise<unknown>> = { v1, v2, v2WithoutEvents };

await answer(async (name: string) => SCENARIOS[name]!());
