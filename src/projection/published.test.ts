import { describe, expect, it } from "vitest";
import type { ProjectedSession, ProjectionDb } from "./projection-db.ts";
import { Published } from "./published.ts";
import { memoryOpener } from "./testing/memory-projection-db.ts";

const IDENTITY = { store: "/s/opencode.db", storeFile: "1:1", visibility: "default", generation: "opencode-1" };

async function connection(open: ReturnType<typeof memoryOpener>): Promise<ProjectionDb> {
  const opened = await open("/cache/projection.sqlite", IDENTITY as never);
  if (!("db" in opened)) throw new Error(opened.unavailable);
  return opened.db;
}

function row(id: string, no: number): ProjectedSession {
  return { id, no, updated: no, stamp: `s${no}`, docs: 1, length: 10, turns: 1 };
}

function write(db: ProjectionDb, change: () => void): void {
  db.begin();
  change();
  db.commit();
}

/** The reader's connection, counting the rows each read of sessions hands back. */
function counted(db: ProjectionDb): { db: ProjectionDb; rowsRead: () => number } {
  let rows = 0;
  return {
    db: Object.assign(Object.create(db) as ProjectionDb, {
      sessionsAfter(no: number) {
        const read = db.sessionsAfter(no);
        rows += read.sessions.length;
        return read;
      },
    }),
    rowsRead: () => rows,
  };
}

/** A file holding `count` sessions (numbers 1 to count), its writer, and a reader that has read it. */
async function seeded(count: number): Promise<{ writer: ProjectionDb; reader: ReturnType<typeof counted>; published: Published }> {
  const open = memoryOpener();
  const writer = await connection(open);
  const reader = counted(await connection(open));
  write(writer, () => {
    for (let no = 1; no <= count; no++) writer.putSession(row(`ses_${no}`, no));
  });
  const published = new Published();
  published.reload(reader.db);
  return { writer, reader, published };
}

describe("Published", () => {
  it("catches up with another connection's writes by reading only the rows numbered above its own", async () => {
    const { writer, reader, published } = await seeded(5);
    expect(reader.rowsRead()).toBe(5);
    // A new session and one projected again: both come with higher numbers.
    write(writer, () => {
      writer.putSession(row("ses_6", 6));
      writer.putSession(row("ses_2", 7));
    });
    published.reloadIfChanged(reader.db);
    expect(reader.rowsRead()).toBe(7);
    expect(published.get("ses_6")?.no).toBe(6);
    expect(published.get("ses_2")?.no).toBe(7);
    expect(published.live()).toEqual(new Set([1, 3, 4, 5, 6, 7]));
    // Nothing written since: nothing read.
    published.reloadIfChanged(reader.db);
    expect(reader.rowsRead()).toBe(7);
  });

  it("reads every row again when the file holds fewer than it knows of: sessions were dropped", async () => {
    const { writer, reader, published } = await seeded(4);
    // One dropped and one added in the same commit: the count alone stays 4, the reader's would be 5.
    write(writer, () => {
      writer.dropSession("ses_3");
      writer.putSession(row("ses_5", 5));
    });
    published.reloadIfChanged(reader.db);
    expect(published.get("ses_3")).toBeUndefined();
    expect(published.get("ses_5")?.no).toBe(5);
    expect([...published.ids()].sort()).toEqual(["ses_1", "ses_2", "ses_4", "ses_5"]);
    expect(published.live()).toEqual(new Set([1, 2, 4, 5]));
    expect(reader.rowsRead()).toBe(4 + 1 + 4);
  });
});
