import { describe, expect, it } from "vitest";
import type { HistoryMessage } from "../history/types.ts";
import { reasoningPart, textMessage, toolPart } from "../history/testing/messages.ts";
import { MemorySource } from "../store/testing/memory-source.ts";
import { FILLER } from "./testing/filler.ts";
import { testService } from "./testing/service.ts";
import { addSession, T0 } from "./testing/sessions.ts";
import type { SearchRequest } from "./types.ts";

function request(query: string, extra: Partial<SearchRequest> = {}): SearchRequest {
  return { query, callerSessionId: "other", scope: "session", sessionId: "s1", types: ["text", "tool"], ...extra };
}

async function ids(service: ReturnType<typeof testService>, query: string, extra: Partial<SearchRequest> = {}): Promise<string[]> {
  const answer = await service.search(request(query, extra));
  return answer.results.map((r) => r.message.id);
}

/** Runs each query twice: cold (scan) and after the index is built, expecting the same top hit. */
async function bothPaths(service: ReturnType<typeof testService>, query: string, expected: string, extra: Partial<SearchRequest> = {}) {
  const cold = await ids(service, query, extra);
  const entry = await service.buildIndex(extra.sessionId ?? "s1");
  expect(entry?.built).toBe(true);
  const warm = await ids(service, query, extra);
  expect(cold[0]).toBe(expected);
  expect(warm[0]).toBe(expected);
}

describe("keyword search", () => {
  it("finds an identifier whole and a file by its name", async () => {
    const source = new MemorySource();
    const messages = addSession(source, "s1", [...FILLER, "I added computeLineItemTotals() to src/billing/invoice-math.ts", ...FILLER]);
    const target = messages[FILLER.length]!.id;
    for (const query of ["computeLineItemTotals", "invoice-math.ts"]) {
      await bothPaths(testService(source), query, target);
    }
  });

  it("finds snake case constants by inner words, in any letter case", async () => {
    const source = new MemorySource();
    const messages = addSession(source, "s1", [...FILLER, "Set PAYMENT_SANDBOX_KEY before running the e2e suite.", ...FILLER]);
    await bothPaths(testService(source), "sandbox key", messages[FILLER.length]!.id);
    await bothPaths(testService(source), "payment_sandbox_KEY", messages[FILLER.length]!.id);
  });

  it("finds CJK by substrings", async () => {
    const source = new MemorySource();
    const messages = addSession(source, "s1", [
      ...FILLER,
      "用户想买无线耳机，预算五百元。",
      "形態素解析にはMeCabを使います。",
      "결제 카드가 거절되었습니다.",
      "今天天气很好，我们去公园吧。",
    ]);
    const base = FILLER.length;
    await bothPaths(testService(source), "耳机", messages[base]!.id);
    await bothPaths(testService(source), "解析", messages[base + 1]!.id);
    await bothPaths(testService(source), "카드", messages[base + 2]!.id);
  });

  it("ranks a message holding more of the query and the whole phrase above partial matches", async () => {
    const source = new MemorySource();
    const messages = addSession(source, "s1", [
      "the rate is fine",
      "the limiter is fine",
      "we fixed the rate limiter by adding a token bucket",
      "rate rate rate rate",
    ]);
    await bothPaths(testService(source), "rate limiter", messages[2]!.id);
  });

  it("breaks ties by recency", async () => {
    const source = new MemorySource();
    const messages = addSession(source, "s1", ["deploy failed", "deploy failed", "nothing here"]);
    const found = await ids(testService(source), "deploy failed");
    expect(found[0]).toBe(messages[1]!.id);
    expect(found).toHaveLength(2);
  });

  it("rejects a query without a searchable word", async () => {
    const source = new MemorySource();
    addSession(source, "s1", ["a b c"]);
    await expect(testService(source).search(request("a"))).rejects.toThrow(/literal=true/);
    await expect(testService(source).search(request("x".repeat(501)))).rejects.toThrow(/at most 500/);
  });
});

describe("literal and regex", () => {
  it("literal finds an exact substring, case-insensitively, that keyword search would split", async () => {
    const source = new MemorySource();
    const messages = addSession(source, "s1", ["error E_CONN_RESET_42 on retry", "error E_CONN on retry", "reset 42"]);
    const service = testService(source);
    expect(await ids(service, "e_conn_reset_42", { literal: true })).toEqual([messages[0]!.id]);
    expect(await ids(service, "ineItem", { literal: true })).toEqual([]);
  });

  it("regex matches with JavaScript syntax and refuses nested repetition", async () => {
    const source = new MemorySource();
    const messages = addSession(source, "s1", ["status 404 from /api/users", "status 500 from /api/orders", "all good"]);
    const service = testService(source);
    expect(await ids(service, "status 4\\d\\d", { regex: true })).toEqual([messages[0]!.id]);
    await expect(service.search(request("(a+)+$", { regex: true }))).rejects.toThrow(/nested repetition/);
    await expect(service.search(request("(unclosed", { regex: true }))).rejects.toThrow(/not a valid/);
  });
});

describe("filters", () => {
  function fixture() {
    const source = new MemorySource();
    const messages = [
      textMessage("s1", "user", "please run the migration", T0),
      textMessage("s1", "assistant", "running the migration now", T0 + 1000, [
        toolPart("bash", { command: "npm run migrate" }, "migration 0042 applied"),
        reasoningPart("the migration might lock the table"),
      ]),
      textMessage("s1", "user", "did the migration finish?", T0 + 2000),
    ];
    source.add({ id: "s1", title: "db", created: T0, updated: T0 }, messages);
    return { source, messages };
  }

  it("filters by role, type, tool and time", async () => {
    const { source, messages } = fixture();
    const service = testService(source);
    expect((await ids(service, "migration", { role: "user" })).sort()).toEqual([messages[0]!.id, messages[2]!.id].sort());
    const tool = await service.search(request("migration", { types: ["tool"] }));
    expect(tool.results.map((r) => r.hits.map((h) => [h.type, h.tool]))).toEqual([[["tool", "bash"]]]);
    expect(await ids(service, "lock table")).toEqual([]);
    expect(await ids(service, "lock table", { types: ["reasoning"] })).toEqual([messages[1]!.id]);
    expect(await ids(service, "migration", { tool: "bash" })).toEqual([messages[1]!.id]);
    expect(await ids(service, "migration", { after: T0 + 500, before: T0 + 1500 })).toEqual([messages[1]!.id]);
  });

  it("hides read output but not its input (tool visibility)", async () => {
    const source = new MemorySource();
    const messages = [textMessage("s1", "assistant", "reading", T0, [toolPart("read", { filePath: "src/zebra.ts" }, "const giraffe = 1")])];
    source.add({ id: "s1", title: "t", created: T0, updated: T0 }, messages);
    const service = testService(source);
    expect(await ids(service, "zebra")).toEqual([messages[0]!.id]);
    expect(await ids(service, "giraffe")).toEqual([]);
  });

  it("in the caller's own session, returns nothing from the live context", async () => {
    const source = new MemorySource();
    const messages = [
      textMessage("self", "user", "old talk about pelicans", T0),
      textMessage("self", "assistant", "pelicans noted", T0 + 1),
      { id: "msg_9999999998", sessionId: "self", role: "user", created: T0 + 2, parts: [{ kind: "compaction", id: "prt_c", auto: true }] } as HistoryMessage,
      textMessage("self", "assistant", "summary mentions pelicans", T0 + 3),
    ];
    messages[3]!.id = "msg_9999999999";
    source.add({ id: "self", title: "t", created: T0, updated: T0 }, messages);
    const service = testService(source);
    const own = await ids(service, "pelicans", { sessionId: undefined, callerSessionId: "self" });
    expect(own.sort()).toEqual([messages[0]!.id, messages[1]!.id].sort());
    const other = await ids(service, "pelicans", { sessionId: "self", callerSessionId: "someone-else" });
    expect(other).toHaveLength(3);
  });
});

describe("snippets and hits", () => {
  it("gives bounded, flattened snippets around matches and counts remaining hits", async () => {
    const source = new MemorySource();
    const long = `${"filler words here\n".repeat(200)}the checksum mismatch happened\tin stage two\n${"more filler\n".repeat(200)}`;
    const extra = Array.from({ length: 5 }, (_, i) => toolPart("bash", { command: `echo ${i}` }, `checksum mismatch ${i}`));
    const messages = [textMessage("s1", "assistant", long, T0, extra)];
    source.add({ id: "s1", title: "t", created: T0, updated: T0 }, messages);
    const service = testService(source, (c) => {
      c.search.snippet_chars = 60;
      c.search.max_hits_per_message = 2;
    });
    const answer = await service.search(request("checksum mismatch"));
    const result = answer.results[0]!;
    expect(result.hits).toHaveLength(2);
    expect(result.remainHits).toBe(4);
    const textHit = result.hits.find((h) => h.type === "text") ?? result.hits[0]!;
    for (const hit of result.hits) {
      for (const snippet of hit.snippets) {
        expect(snippet.length).toBeLessThanOrEqual(62);
        expect(snippet).not.toMatch(/[\n\t]/);
        expect(snippet.toLowerCase()).toContain("checksum");
      }
    }
    expect(textHit.snippets.length).toBeGreaterThan(0);
  });
});

describe("incremental index", () => {
  it("indexes only what changed: appended, edited and removed messages", async () => {
    const source = new MemorySource();
    const messages = addSession(source, "s1", ["alpha one", "beta two", "gamma three"]);
    const service = testService(source);
    const entry = (await service.buildIndex("s1"))!;
    const index = entry.index;
    expect(index.messageCount).toBe(3);

    const appended = textMessage("s1", "user", "delta four walrus", T0 + 10_000);
    source.sessions.get("s1")!.messages.push(appended);
    expect(await ids(service, "walrus")).toEqual([appended.id]);
    expect(entry.index).toBe(index);
    expect(index.messageCount).toBe(4);
    expect(index.has(messages[0]!)).toBe(true);

    const edited: HistoryMessage = { ...messages[1]!, parts: [{ kind: "text", id: "prt_edit", text: "beta two narwhal" }] };
    source.sessions.get("s1")!.messages[1] = edited;
    expect(await ids(service, "narwhal")).toEqual([edited.id]);
    expect(index.has(edited)).toBe(true);
    expect(index.has(messages[0]!)).toBe(true);

    source.sessions.get("s1")!.messages.splice(3, 1);
    expect(await ids(service, "walrus")).toEqual([]);
    expect(index.messageCount).toBe(3);
  });

  it("shares one build between concurrent searches", async () => {
    const source = new MemorySource();
    addSession(
      source,
      "s1",
      Array.from({ length: 300 }, (_, i) => `message ${i} about kangaroo ${i % 7}`),
    );
    const service = testService(source);
    const answers = await Promise.all([service.search(request("kangaroo")), service.search(request("kangaroo")), service.search(request("kangaroo"))]);
    expect(new Set(answers.map((a) => a.results.length))).toEqual(new Set([10]));
    expect(service.cache.size).toBe(1);
    const entry = (await service.buildIndex("s1"))!;
    expect(entry.index.messageCount).toBe(300);
  });
});

describe("cache", () => {
  it("evicts the least recently used session index when over its byte budget", async () => {
    const source = new MemorySource();
    for (const id of ["a", "b", "c"])
      addSession(
        source,
        id,
        Array.from({ length: 1500 }, (_, i) => `${id} word${i} text${i * 7} more${i * 13}`),
      );
    const service = testService(source, (c) => (c.search.cache_bytes = 1_048_576));
    const a = (await service.buildIndex("a"))!;
    const oneBytes = a.bytes();
    expect(oneBytes).toBeGreaterThan(1_048_576 / 3);
    await service.buildIndex("b");
    await service.buildIndex("c");
    const keys = service.cache.keys().map((k) => k.split("\u0000")[0]);
    expect(keys).not.toContain("a");
    expect(keys).toContain("c");
    expect(service.cache.totalWeight()).toBeLessThanOrEqual(1_048_576 + oneBytes);
  });
});

describe("project scope", () => {
  it("starts no index build for the sessions it reads, and goes through an index one has", async () => {
    const source = new MemorySource();
    for (const id of ["s1", "s2", "s3"]) addSession(source, id, [...FILLER, `the heron ledger of ${id}`]);
    const service = testService(source);
    const project = (query: string) => service.search(request(query, { scope: "project", callerSessionId: "x" }));
    expect((await project("heron ledger")).results).toHaveLength(3);
    expect(service.cache.size).toBe(0);
    // s2 searched alone gets its index; a project search then brings that index up to date.
    await service.search(request("heron", { sessionId: "s2" }));
    const s2 = (await service.buildIndex("s2"))!;
    const before = s2.index.messageCount;
    addSession(source, "s2", [...FILLER, "the heron ledger of s2", "the heron ledger moved to the archive"]);
    expect((await project("archive heron")).results[0]!.sessionId).toBe("s2");
    expect(service.cache.keys().map((key) => key.split("\u0000")[0])).toEqual(["s2"]);
    await s2.current();
    expect(s2.index.messageCount).toBe(before + 1);
  });

  it("counts the listing in its time budget: a listing slower than the budget leaves every session unsearched", async () => {
    const source = new MemorySource();
    for (const id of ["s1", "s2", "s3"]) addSession(source, id, [...FILLER, "the flamingo cache was keyed by tenant id"], { updated: T0 });
    const list = source.listSessions.bind(source);
    const search = (listingMs: number) => {
      source.listSessions = async () => {
        await new Promise((resolve) => setTimeout(resolve, listingMs));
        return list();
      };
      return testService(source, (c) => (c.search.project_time_budget_ms = 100)).search(
        request("flamingo tenant", { scope: "project", callerSessionId: "other" }),
      );
    };
    const slow = await search(150);
    expect(slow.results).toEqual([]);
    expect(slow.unsearched).toBe(3);
    const quick = await search(0);
    expect(quick.results).toHaveLength(3);
    expect(quick.unsearched).toBeUndefined();
  });

  it("finds the answer in another session and names it", async () => {
    const source = new MemorySource();
    addSession(source, "s1", FILLER, { updated: T0 + 5 });
    const other = addSession(source, "s2", [...FILLER, "the flamingo cache was keyed by tenant id"], { updated: T0 + 1 });
    const service = testService(source);
    const answer = await service.search(request("flamingo tenant", { scope: "project", callerSessionId: "s1" }));
    expect(answer.results[0]!.sessionId).toBe("s2");
    expect(answer.results[0]!.message.id).toBe(other[FILLER.length]!.id);
    expect(answer.unsearched).toBeUndefined();
  });

  it("returns snippets for every result it keeps", async () => {
    const source = new MemorySource();
    for (const id of ["s1", "s2", "s3"])
      addSession(
        source,
        id,
        Array.from({ length: 30 }, (_, i) => `${id} pelican report ${i} pelican`),
        { updated: T0 },
      );
    const service = testService(source);
    const answer = await service.search(request("pelican", { scope: "project", callerSessionId: "x", limit: 12 }));
    expect(answer.results).toHaveLength(12);
    for (const result of answer.results) {
      expect(result.hits[0]!.snippets.join(" ")).toContain("pelican");
    }
  });

  it("ranks sessions by content for history_sessions", async () => {
    const source = new MemorySource();
    addSession(source, "s1", ["we talked about lunch"], { updated: T0 + 3 });
    addSession(source, "s2", ["we fixed the rate limiter in the gateway", "rate limiter tests pass"], { updated: T0 + 2 });
    addSession(source, "s3", ["the rate of change"], { updated: T0 + 1 });
    const service = testService(source);
    const answer = await service.sessions({ query: "rate limiter", limit: 10, includeChildren: false });
    expect(answer.sessions.map((s) => s.session.id)).toEqual(["s2", "s3"]);
    expect(answer.sessions[0]!.snippet).toContain("rate limiter");
    const all = await service.sessions({ limit: 10, includeChildren: false });
    expect(all.sessions.map((s) => s.session.id)).toEqual(["s1", "s2", "s3"]);
    expect(all.sessions[1]!.turns).toBe(1);
    expect(all.sessions[1]!.preview).toBe("we fixed the rate limiter in the gateway");
  });
});
