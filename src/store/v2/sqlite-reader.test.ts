// The OpenCode 2 reader against stores shaped like the host's (testing/v2-store.ts cites the
// source of each fact), run in the host's own Bun: bun:sqlite does not exist in Node.
// Facts checked here (anomalyco/opencode): rows are read in `seq` order, as
// packages/core/src/session/history.ts@008d5715 reads them; a fork copies rows under ids
// `msg_<event>_<seq>` (packages/core/src/session/projector.ts@008d5715), which sort against seq;
// the projector rewrites a streaming message's row in place and a revert removes rows.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runInBun } from "../testing/run-in-bun.ts";

const scenarios = fileURLToPath(new URL("./testing/reader-scenarios.bun.ts", import.meta.url));
const run = (name: string) => runInBun<Record<string, any>>(scenarios, name);

describe("OpenCode 2 reader", () => {
  const reads = run("reads");

  it("reads a session's rows in seq order, whatever their ids, in pieces", () => {
    expect(reads.error).toBeUndefined();
    expect(reads.ids).toEqual(["msg_fork_9", "msg_fork_10", "msg_fork_100", "msg_aaa"]);
    expect(reads.seqs).toEqual([0, 1, 2, 3]);
    // A pause offered between rows, and a cancelled read stops.
    expect(reads.pauses).toBe(4);
    expect(reads.stopped).toBe("cancelled");
    expect(reads.newest).toEqual(["msg_fork_100", "msg_aaa"]);
    expect(reads.one).toMatchObject({ agent: "build", content: [{ type: "text", text: "second" }] });
    expect(reads.missing).toBeNull();
  });

  it("gives the cache the messages in seq order, the model switch left out", () => {
    expect(reads.mapped).toEqual(["msg_fork_9", "msg_fork_100", "msg_aaa"]);
  });

  it("lists the probe's project (children included) or every project; looks sessions up in the store", () => {
    expect(reads.projectId).toBe("prj_a");
    expect(reads.project).toEqual(["ses_a1", "ses_a2"]);
    expect(reads.every).toEqual(["ses_a1", "ses_a2", "ses_b1"]);
    expect(reads.scoped).toEqual(["ses_b1"]);
    expect(reads.child).toMatchObject({ id: "ses_a2", parentId: "ses_a1", agent: "general", directory: "/work/a" });
    expect(reads.stored).toMatchObject({ id: "ses_b1", project_id: "prj_b", directory: "/work/b" });
    expect(reads.absent).toBeNull();
    expect(reads.otherProbe).toBe("refused");
  });
});

describe("OpenCode 2 reader under the cache (CachedHistorySource with V2_DECODE)", () => {
  const steps = run("refresh");

  it("answers from the cache while the session is unchanged", () => {
    expect(steps.first).toEqual(["question", "draft"]);
    expect(steps.unchangedKeepsList).toBe(true);
  });

  it("finds a new message and a row rewritten in place without reading the session again", () => {
    expect(steps.added).toEqual(["question", "draft", "follow-up"]);
    expect(steps.streamed).toEqual(["question", "draft, finished+and more", "follow-up"]);
    expect(steps.readsBeforeRemoval).toBe(1);
  });

  it("gives one message from the cached list while current, else reads it alone", () => {
    expect(steps.oneFromList).toBe(true);
    expect(steps.oneStreamed).toBe("draft, finished+and more");
  });

  it("drops a reverted message (a full read: the store cannot say which rows went)", () => {
    expect(steps.reverted).toEqual(["question", "draft, finished+and more"]);
    expect(steps.wholeReads).toBe(2);
  });
});

describe("change stamps of many sessions in one statement", () => {
  const steps = run("stamps");

  it("equal each session's own stamp as the store changes, in both generations; a session the store lacks is absent", () => {
    expect(steps.error).toBeUndefined();
    for (const step of [...steps.v2, ...steps.v1]) expect(step.many).toEqual(step.each);
    // The stamps moved with each write: the comparisons were of different stamps.
    const v2 = steps.v2.map((step: { each: unknown }) => JSON.stringify(step.each));
    expect(new Set(v2).size).toBe(v2.length);
    expect(Object.keys(steps.v1[1].many).sort()).toEqual(["ses_l1", "ses_l2", "ses_l3"]);
  });
});

describe("store generation", () => {
  const verdicts = run("generations");

  it("tells OpenCode 1.x (an empty session_message, no session_v2), OpenCode 2, and OpenCode 2 beside frozen 1.x tables", () => {
    expect(verdicts["opencode-1"]).toBe("opencode-1");
    expect(verdicts["opencode-2"]).toBe("opencode-2");
    expect(verdicts["opencode-2-with-1x"]).toBe("opencode-2");
    expect(verdicts.unknown).toMatch(/^unknown schema \(.*table session missing/);
  });

  it("the OpenCode 2 reader refuses a 1.x store, and OpenCode 2 tables lacking a column it reads, saying why", () => {
    expect(verdicts.v2ReaderOn1x).toMatch(/an OpenCode 1\.x store \(no session_v2 table\)$/);
    expect(verdicts.v2WithoutColumn).toMatch(/unknown OpenCode 2 schema \(session_v2\.agent missing\)$/);
  });
});

describe("the 1.x reader's whole-session reads", () => {
  const reads = run("legacyReads");

  it("reads parts through the session index: each message's own, in id order, over several queries", () => {
    expect(reads.error).toBeUndefined();
    // In time order (the first session's own message was written last, at the builder's clock).
    expect(reads.messages).toEqual(["msg_m2", "msg_m3", expect.stringMatching(/^msg_legacy/)]);
    expect(reads.firstParts).toEqual([["prt_a", "prt_b"], ["prt_y000", "prt_y001", "prt_y002"], [expect.stringMatching(/^prt_legacy/)]]);
    expect(reads.counts).toEqual([2, 601, 1]);
    expect(reads.sorted).toBe(true);
    expect(reads.owners).toBe(true);
    // 1.2 MB of parts: several queries, a pause offered between them and between messages.
    expect(reads.pauses).toBeGreaterThan(3 + 4);
    expect(reads.stopped).toBe("cancelled");
    expect(reads.generation).toBe("opencode-1");
  });

  it("does not take a store whose part table has no session index (every read would scan it)", () => {
    expect(reads.withoutIndex).toBe("unknown schema (no index on part.session_id)");
  });

  it("reads a long session's messages a page at a time, offering the event loop a turn between pages", () => {
    const pages = run("legacyPages");
    expect(pages.error).toBeUndefined();
    expect(pages.numbered).toEqual(Array.from({ length: 1_200 }, (_, i) => `msg_${String(i).padStart(4, "0")}`));
    // Written at the first turn, after the first page: the next page's query finds it.
    expect(pages.late).toBe(true);
  });
});
