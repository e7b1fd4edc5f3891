import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { candidateDatabases, nextRowCount, nodeDatabase, QUERY_BYTES } from "./sqlite.ts";
import { scratchDir } from "../util/testing/scratch-dir.ts";

describe("candidateDatabases", () => {
  // The host resolves OPENCODE_DB the same way in 1.18.33 (its bundle) and OpenCode 2
  // (packages/core/src/database/database.ts@4dba5c9f, anomalyco/opencode): absolute as given,
  // relative under the data dir, ":memory:" for no file.
  const dir = scratchDir("candidates");
  for (const name of ["opencode.db", "opencode-beta.db", "custom.db"]) writeFileSync(join(dir, name), "");
  mkdirSync(join(dir, "elsewhere"));
  writeFileSync(join(dir, "elsewhere", "mine.db"), "");

  it("opencode.db first, then channel builds' files", () => {
    expect(candidateDatabases(dir, {})).toEqual([join(dir, "opencode.db"), join(dir, "opencode-beta.db")]);
  });

  it("only the file OPENCODE_DB names, when it is set", () => {
    expect(candidateDatabases(dir, { OPENCODE_DB: "custom.db" })).toEqual([join(dir, "custom.db")]);
    expect(candidateDatabases(dir, { OPENCODE_DB: join(dir, "elsewhere", "mine.db") })).toEqual([join(dir, "elsewhere", "mine.db")]);
    expect(candidateDatabases(dir, { OPENCODE_DB: "absent.db" })).toEqual([]);
    expect(candidateDatabases(dir, { OPENCODE_DB: ":memory:" })).toEqual([]);
  });
});

describe("nextRowCount (rows per query of a whole-session read)", () => {
  it("scales the count to the bytes the last query fetched", () => {
    expect(nextRowCount(64, QUERY_BYTES * 4)).toBe(16);
    expect(nextRowCount(64, QUERY_BYTES)).toBe(64);
  });

  it("grows at most twofold per query, up to 256, and never below one row", () => {
    expect(nextRowCount(8, 100)).toBe(16);
    expect(nextRowCount(200, 100)).toBe(256);
    expect(nextRowCount(1, 50 * QUERY_BYTES)).toBe(1);
    expect(nextRowCount(4, 0)).toBe(8);
  });
});

describe("nodeDatabase (node:sqlite in the shape of bun:sqlite)", () => {
  it("prepares each query, passes parameters through, and answers a missing row as null", () => {
    const prepared: string[] = [];
    const calls: unknown[][] = [];
    const db = nodeDatabase({
      prepare(sql) {
        prepared.push(sql);
        return {
          all: (...params) => {
            calls.push(params);
            return [{ id: "ses_a" }];
          },
          get: (...params) => {
            calls.push(params);
            return params[0] === "ses_a" ? { id: "ses_a" } : undefined;
          },
        };
      },
      exec: (sql) => void prepared.push(`exec ${sql}`),
      close: () => void prepared.push("close"),
    });
    const byId = db.query("SELECT id FROM session WHERE id = ?1");
    expect(byId.get("ses_a")).toEqual({ id: "ses_a" });
    expect(byId.get("ses_none")).toBeNull();
    expect(db.query("SELECT id FROM session LIMIT ?1").all(5)).toEqual([{ id: "ses_a" }]);
    db.exec("PRAGMA query_only = ON");
    db.close();
    expect(prepared).toEqual(["SELECT id FROM session WHERE id = ?1", "SELECT id FROM session LIMIT ?1", "exec PRAGMA query_only = ON", "close"]);
    expect(calls).toEqual([["ses_a"], ["ses_none"], [5]]);
  });
});
