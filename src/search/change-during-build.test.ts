// A session that changes while its first index build is still running (the build runs in slices
// between searches): searches must answer from the new messages, and the finished index must
// equal a fresh build of them.

import { describe, expect, it, vi } from "vitest";
import type { HistoryMessage } from "../history/types.ts";
import type { IndexBuilder } from "./index/build.ts";
import type { InspectableSearchService } from "./service.ts";
import type { SearchRequest } from "./types.ts";
import { textMessage, toolPart } from "../history/testing/messages.ts";
import { MemorySource } from "../store/testing/memory-source.ts";
import { testService } from "./testing/service.ts";

const T0 = Date.UTC(2025, 0, 1);
const SESSION = "s_big";
const WORDS = "alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega river stone cloud forest ember".split(" ");

/** A sizeable session (a few MB of indexed text), so its first build takes many slices. */
function bigSession(count: number): HistoryMessage[] {
  const messages: HistoryMessage[] = [];
  for (let i = 0; i < count; i++) {
    const words = Array.from({ length: 60 }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]!).join(" ");
    const extra = i % 4 === 1 ? [toolPart("bash", { command: `run step${i}` }, `${words}\n`.repeat(4))] : [];
    messages.push(textMessage(SESSION, i % 2 === 0 ? "user" : "assistant", `${words} marker${i}`, T0 + i * 1000, extra));
  }
  return messages;
}

function request(query: string): SearchRequest {
  return { query, callerSessionId: "other", scope: "session", sessionId: SESSION, types: ["text", "tool"], limit: 20 };
}

async function results(service: InspectableSearchService, query: string): Promise<Array<{ id: string; score: number }>> {
  const answer = await service.search(request(query));
  return answer.results.map((r) => ({ id: r.message.id, score: r.score }));
}

function entryOf(service: InspectableSearchService): IndexBuilder {
  const key = service.cache.keys().find((k) => k.startsWith(`${SESSION}\u0000`));
  return service.cache.get(key!)!;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("a session changed while its index is being built", () => {
  it("answers from the new messages during and after the build, and ends equal to a fresh build", async () => {
    const source = new MemorySource();
    const messages = bigSession(4000);
    source.add({ id: SESSION, title: "big", created: T0, updated: T0 }, messages);
    const service = testService(source);

    // Cold search: answered by a scan; the build starts in the background.
    expect((await results(service, "marker10")).map((r) => r.id)).toEqual([messages[10]!.id]);
    const entry = entryOf(service);
    while (entry.index.messageCount === 0) await turn();
    // The build is under way, not finished: the change lands in the middle of it.
    expect(entry.built).toBe(false);
    expect(entry.index.messageCount).toBeLessThan(messages.length);

    // Change the session through the source: edit (a new object), remove, append.
    const list = source.sessions.get(SESSION)!.messages;
    const edited = list[20]!;
    const editedText = edited.parts[0]!.kind === "text" ? edited.parts[0]!.text : "";
    list[20] = { ...edited, parts: [{ kind: "text", id: edited.parts[0]!.id, text: editedText.replace("marker20", "walrusedit") }, ...edited.parts.slice(1)] };
    const removed = list.splice(30, 1)[0]!;
    const appended = [
      textMessage(SESSION, "user", "the quokka handshake failed twice", T0 + 5_000_000),
      textMessage(SESSION, "assistant", "quokka handshake retried with backoff", T0 + 5_001_000),
    ];
    list.push(...appended);

    const check = async () => {
      expect((await results(service, "marker30")).map((r) => r.id)).not.toContain(removed.id);
      expect((await results(service, "marker20")).map((r) => r.id)).toEqual([]);
      expect((await results(service, "walrusedit")).map((r) => r.id)).toEqual([edited.id]);
      expect(new Set((await results(service, "quokka handshake")).map((r) => r.id))).toEqual(new Set(appended.map((m) => m.id)));
    };
    // Right after the change, while the build still runs (a search waits for it), and after it finished.
    await check();
    await check();
    await service.buildIndex(SESSION);
    expect(entry.built).toBe(true);
    expect(entry.index.messageCount).toBe(list.length);
    await check();

    // The index now scores exactly as a fresh build of the new messages.
    const fresh = testService(source);
    await fresh.buildIndex(SESSION);
    for (const query of ["walrusedit", "quokka handshake", "alpha omega", "river stone cloud", "step21", "sigma"]) {
      const mine = await results(service, query);
      const theirs = await results(fresh, query);
      expect(mine.map((r) => r.id)).toEqual(theirs.map((r) => r.id));
      for (const [i, r] of mine.entries()) expect(r.score).toBeCloseTo(theirs[i]!.score, 9);
      expect(theirs.length).toBeGreaterThan(0);
    }
  }, 60_000);
});

describe("a session searched repeatedly while its first index builds", () => {
  it("gets its index built within a few searches, and later searches use it", async () => {
    const source = new MemorySource();
    const messages = bigSession(4000);
    source.add({ id: SESSION, title: "big", created: T0, updated: T0 }, messages);
    const service = testService(source);

    // Back to back, each awaited (as a model calls the tool): no idle turns between searches.
    let searches = 0;
    let entry: IndexBuilder | undefined;
    while (!entry?.built && searches < 3) {
      expect((await results(service, `marker${searches}`)).map((r) => r.id)).toEqual([messages[searches]!.id]);
      searches++;
      entry = entryOf(service);
    }
    expect(entry?.built).toBe(true);

    const indexSearch = vi.spyOn(entry!.index, "search");
    expect((await results(service, "marker77")).map((r) => r.id)).toEqual([messages[77]!.id]);
    expect(indexSearch).toHaveBeenCalled();
  }, 60_000);

  it("scans the first search without its build taking turns, and the second one waits for the build", async () => {
    const source = new MemorySource();
    const messages = bigSession(4000);
    source.add({ id: SESSION, title: "big", created: T0, updated: T0 }, messages);
    const service = testService(source);

    expect((await results(service, "marker5")).map((r) => r.id)).toEqual([messages[5]!.id]);
    const entry = entryOf(service);
    // The scan had the slices to itself: the build has its turn in the queue but indexed nothing yet.
    expect(entry.underWay).toBe(true);
    expect(entry.index.messageCount).toBe(0);

    expect((await results(service, "marker6")).map((r) => r.id)).toEqual([messages[6]!.id]);
    expect(entry.built).toBe(true);
  }, 60_000);
});
