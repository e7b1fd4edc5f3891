// OpenCode 2 only: the calling session's own view after the host's compactions. 2.1.2 stores a
// completed compaction with `metadata.keepID` (no `recent`) and re-renders the messages from keepID on
// inside its checkpoint, so the model has the summary and that kept tail: the view must hide exactly
// those, and nothing older, after a manual and after an automatic compaction.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startHost, type Host } from "./harness/host.ts";
import { selectedHost } from "./harness/hosts.ts";
import { lastUserText, type RecordedRequest } from "./harness/mock-llm.ts";

type Json = Record<string, any>;

const isV2 = selectedHost().generation === 2;
let host: Host;

/** The session's rows as 2.1.2 serves them, oldest first. */
async function rows(sessionId: string): Promise<Json[]> {
  const page = await host.request<{ data: Json[] }>("GET", `/api/session/${sessionId}/message?order=asc&limit=200`);
  return page.data;
}

/** The ids the own view must show: every history row before the last compaction's keepID. */
function expectedVisible(all: Json[]): { keep: string; visible: string[] } {
  const compaction = all.filter((row) => row.type === "compaction" && row.status === "completed").at(-1);
  expect(compaction, "a completed compaction row").toBeDefined();
  expect(compaction).not.toHaveProperty("recent");
  const keep = compaction!.metadata?.keepID as string;
  expect(keep).toMatch(/^msg_/);
  const end = all.findIndex((row) => row.id === keep);
  expect(end).toBeGreaterThan(0);
  const visible = all
    .slice(0, end)
    .filter((row) => row.type === "user" || row.type === "assistant" || (row.type === "compaction" && row.status === "completed"));
  return { keep, visible: visible.map((row) => String(row.id)) };
}

/** The checkpoint message of a request: the kept tail as the model received it. */
function checkpointOf(request: RecordedRequest): string {
  const first = request.body.messages.find((message) => message.role === "user");
  const text = typeof first?.content === "string" ? first.content : JSON.stringify(first?.content ?? "");
  expect(text).toContain("<conversation-checkpoint>");
  return text;
}

async function ownView(sessionId: string): Promise<{ ids: string[]; checkpoint: string }> {
  const browse = await host.callTool(sessionId, "history_browse_messages", { num_before: 50 }, { prompt: "Browse what came before." });
  expect(browse.status).toBe("completed");
  const request = host.mock.chatRequests().find((r) => lastUserText(r.body) === "Browse what came before.")!;
  return { ids: (browse.output as Json).messages.map((message: Json) => message.message_id), checkpoint: checkpointOf(request) };
}

describe.skipIf(!isV2)("the own view after OpenCode 2's compactions", () => {
  beforeAll(async () => {
    host = await startHost();
  });
  afterAll(async () => {
    await host?.stop();
  });

  test("manual: the summary and the kept tail are hidden, every older message shows", async () => {
    const id = (await host.createSession()).id;
    for (const n of [1, 2, 3, 4]) {
      host.mock.push({ text: `Answer ${n} about subject${n}word.` });
      await host.prompt(id, `Question ${n} about subject${n}word?`);
    }
    expect(await host.summarize(id)).toBe(true);
    host.mock.reset();
    const { keep, visible } = expectedVisible(await rows(id));
    const view = await ownView(id);
    expect(view.ids).toEqual(visible);
    // The model has the kept tail in its checkpoint, and not the newest visible message.
    const kept = (await rows(id)).find((row) => row.id === keep)!;
    expect(view.checkpoint).toContain(String(kept.text));
    expect(view.checkpoint).toMatch(/<recent-context>[\s\S]*Question 4 about subject4word/);
    expect(view.checkpoint.split("<recent-context>")[1]).not.toContain("Answer 3 about subject3word");

    // Searching the own session finds the older turn, never the kept one the model has.
    const older = await host.callTool(id, "history_search", { query: "subject3word", session_id: id });
    expect((older.output as Json).messages?.length).toBeGreaterThan(0);
    const keptHit = await host.callTool(id, "history_search", { query: "subject4word", session_id: id });
    expect(JSON.stringify(keptHit.output)).not.toContain(keep);
    // Asking for the kept message by id says it is already in context.
    const pulled = await host.callTool(id, "history_browse_messages", { message_id: keep });
    expect(JSON.stringify([pulled.raw, pulled.error])).toMatch(/already in your context/);
  });

  test("over 2.1.2's keep budget the tail starts turns back; the chart cites none of it", async () => {
    const id = (await host.createSession()).id;
    // Four answers of about 6,000 estimated tokens: 15,000 end inside turn 2, so 2.1.2 keeps from prompt 3.
    for (const n of [1, 2, 3, 4]) {
      host.mock.push({ text: `Answer ${n}: ${"the cache layer keeps entries per tenant. ".repeat(590)}` });
      await host.prompt(id, `Question ${n} about the cache?`);
    }
    expect(await host.summarize(id)).toBe(true);
    host.mock.reset();
    const all = await rows(id);
    const { keep, visible } = expectedVisible(all);
    const prompts = all.filter((row) => row.type === "user").map((row) => String(row.id));
    expect(keep).toBe(prompts[2]);
    const view = await ownView(id);
    expect(view.ids).toEqual(visible);
    const chart = String(all.find((row) => row.type === "compaction")!.summary);
    const cited = [...new Set(chart.match(/msg_[A-Za-z0-9]+/g) ?? [])];
    expect(cited.length).toBeGreaterThan(0);
    for (const cite of cited) expect(visible, `${cite} cited by the chart`).toContain(cite);
  });

  test("automatic: a nearly full window compacts before the next prompt; the view ends before its keepID", async () => {
    const id = (await host.createSession()).id;
    host.mock.push({ text: "Answer one about firstword." });
    await host.prompt(id, "Question one about firstword?");
    // 99,000 prompt tokens of the harness model's 100,000: the next step compacts first.
    host.mock.push({ text: "Answer two about secondword.", usage: { prompt_tokens: 99_000 } });
    await host.prompt(id, "Question two about secondword?");
    host.mock.push({ text: "Answer three about thirdword." });
    await host.prompt(id, "Question three about thirdword?");
    const all = await rows(id);
    expect(all.filter((row) => row.type === "compaction").map((row) => row.reason)).toEqual(["auto"]);
    host.mock.reset();
    const { visible } = expectedVisible(all);
    const view = await ownView(id);
    expect(view.ids).toEqual(visible);
    expect(view.ids.length).toBeGreaterThan(0);
  });
});
