// history_search and history_sessions past the first page, inside the real host: pages follow
// next_offset, give every result once, and end; an offset past the end is an empty page.
import { afterAll, beforeAll, expect, test } from "vitest";
import { startHost, type Host } from "./harness/host.ts";

type Json = Record<string, any>;

let host: Host;
let limiter: string;
let caller: string;
const sessionIds: string[] = [];

async function call(name: string, args: Json): Promise<Json> {
  const result = await host.callTool(caller, name, args);
  expect(result.error, JSON.stringify(args)).toBeUndefined();
  return result.output as Json;
}

/** Every page from offset 0, following next_offset; the ids in order and the pages' answers. */
async function pages(name: string, args: Json, key: "messages" | "sessions", id: string): Promise<{ ids: string[]; answers: Json[] }> {
  const ids: string[] = [];
  const answers: Json[] = [];
  let offset: number | undefined = 0;
  while (offset !== undefined) {
    const answer = await call(name, { ...args, offset });
    answers.push(answer);
    for (const item of answer[key] ?? []) ids.push(item[id]);
    offset = answer.next_offset;
  }
  return { ids, answers };
}

beforeAll(async () => {
  host = await startHost();
  // Seven turns whose request and answer both name the rate limiter: 14 matching messages.
  limiter = (await host.createSession()).id;
  for (let i = 1; i <= 7; i++) {
    host.mock.push({ text: `Noted: the rate limiter allows ${i * 10} requests per minute in stage ${i}.` });
    await host.prompt(limiter, `What does the rate limiter allow in stage ${i}?`);
  }
  sessionIds.push(limiter);
  for (const topic of ["billing export", "audio tagging", "schema migration"]) {
    const session = (await host.createSession()).id;
    host.mock.push({ text: `Working on the ${topic}.` });
    await host.prompt(session, `Start the ${topic}.`);
    sessionIds.push(session);
  }
  caller = (await host.createSession()).id;
});

afterAll(async () => {
  await host?.stop();
});

test("history_search with limit 5: next_offset 5, then 10, then the last 4; all 14 once", async () => {
  const args = { query: "rate limiter", session_id: limiter, limit: 5 };
  const { ids, answers } = await pages("history_search", args, "messages", "message_id");
  expect(answers.map((answer) => answer.next_offset)).toEqual([5, 10, undefined]);
  expect(answers.map((answer) => answer.messages.length)).toEqual([5, 5, 4]);
  expect(ids).toHaveLength(14);
  expect(new Set(ids).size).toBe(14);
  const whole = await call("history_search", { ...args, limit: 20 });
  expect(ids).toEqual(whole.messages.map((m: Json) => m.message_id));
  // The first page, as the model reads it (docs/tools.md shows it).
  console.log(`history_search page: ${JSON.stringify(answers[0])}`);
});

test("project scope pages the same way", async () => {
  const { ids } = await pages("history_search", { query: "rate limiter", scope: "project", limit: 4 }, "messages", "message_id");
  const whole = await call("history_search", { query: "rate limiter", scope: "project", limit: 50 });
  expect(ids).toEqual(whole.messages.map((m: Json) => m.message_id));
  expect(new Set(ids).size).toBe(ids.length);
});

test("history_sessions pages its listing and its ranking", async () => {
  const listing = await pages("history_sessions", { limit: 2 }, "sessions", "session_id");
  const all = await call("history_sessions", { limit: 50 });
  expect(listing.ids).toEqual(all.sessions.map((s: Json) => s.session_id));
  expect(listing.ids).toEqual(expect.arrayContaining(sessionIds));
  expect(listing.answers.at(-1)!.next_offset).toBeUndefined();
  const ranked = await pages("history_sessions", { query: "start", limit: 1 }, "sessions", "session_id");
  const allRanked = await call("history_sessions", { query: "start", limit: 50 });
  expect(ranked.ids).toEqual(allRanked.sessions.map((s: Json) => s.session_id));
  expect(ranked.ids.length).toBeGreaterThanOrEqual(3);
});

test("an offset past the end is an empty page that says so; a bad offset names the range", async () => {
  expect(await call("history_search", { query: "rate limiter", session_id: limiter, offset: 14 })).toEqual({
    hint: "No more results: offset 14 is past the last one.",
  });
  expect(await call("history_sessions", { offset: 500 })).toEqual({ hint: "No more results: offset 500 is past the last one." });
  const bad = await host.callTool(caller, "history_search", { query: "rate limiter", offset: 2000 });
  // The ceiling is checked by the tool, not put in the JSON Schema: every host hands it over.
  expect(bad.error).toMatch(/^offset must be an integer from 0 to 1000 \(got 2000\)/);
});
