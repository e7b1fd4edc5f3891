// export's Markdown over a session the real OpenCode 1.18.33 wrote (src/history/testing/fixtures)
// and over built messages: order, folding, summaries, subtasks.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { assistant, compactionPair, nextId, reasoningPart, toolCall, user } from "../history/testing/messages.ts";
import { toolVisibility } from "../history/tool-visibility.ts";
import type { HistoryMessage, SessionInfo } from "../history/types.ts";
import { buildView } from "../history/view.ts";
import { mapMessage } from "../store/map.ts";
import { FOLD, fenced, sessionMarkdown } from "./export-markdown.ts";

const options = { visibility: toolVisibility([], []), directory: "/project" };

function fixture(name: string): HistoryMessage[] {
  const raw = JSON.parse(readFileSync(new URL(`../history/testing/fixtures/${name}`, import.meta.url), "utf8")) as unknown[];
  return raw.map((entry) => mapMessage(entry)).filter((message): message is HistoryMessage => message !== undefined);
}

function render(messages: HistoryMessage[], info: Partial<SessionInfo> = {}): string {
  const id = messages[0]?.sessionId ?? "ses_test";
  return sessionMarkdown({ id, title: "A session", directory: "/project", ...info }, buildView(id, messages, false), options);
}

describe("export Markdown of a session the host wrote", () => {
  const messages = fixture("main-session.json");
  const markdown = render(messages, { created: messages[0]!.created, updated: messages.at(-1)!.created });

  it("starts with a header: title, session id, directory, times, counts", () => {
    expect(markdown.split("\n\n")[0]).toBe("# A session");
    expect(markdown).toContain(`- Session: \`${messages[0]!.sessionId}\``);
    expect(markdown).toContain("- Project directory: `/project`");
    expect(markdown).toMatch(/- Created: 2026-11-30 06:03:37 UTC\n- Updated: 2026-11-30 06:03:52 UTC/);
    expect(markdown).toContain("- 8 turns, 25 messages");
  });

  it("gives every turn and every message in the session's order, the words as written", () => {
    const turns = [...markdown.matchAll(/^## Turn (\d+)$/gm)].map((match) => Number(match[1]));
    expect(turns).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const positions = messages.map((message) => markdown.indexOf(`\`${message.id}\``));
    expect(positions.every((position) => position > 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(markdown).toContain(
      "**User** · 2026-11-30 06:03:37 UTC · `msg_22b0d3b5c001fJX3s5jZde7Rt3`\n\nCreate hello.txt with a greeting, and check the shell works with echo hi.",
    );
    expect(markdown).toContain("I ran `echo hi` (it printed `hi`) and created **hello.txt**.");
  });

  it("shows tool calls with their input and output, errors, and the files they changed", () => {
    expect(markdown).toContain(
      '**Tool `bash`** · completed · `prt_22b0d4732001z4Oh2cb0IFzwRr`\n\n```\nbash(command="echo hi")\n```\n\nOutput:\n\n```\nhi\n```',
    );
    expect(markdown).toMatch(/\*\*Tool `edit`\*\* · error · `prt_\w+`\n\n```\nedit\(.*\)\n```\n\nError:\n\n```\nCould not find oldString/);
    expect(markdown).toContain("Files changed: `hello.txt`");
    expect(markdown).toContain("_Output not shown (the `show_tool_output` setting hides `read` output)._");
  });

  it("marks reasoning, host-added text, attachments, the subagent a task ran, and the compaction", () => {
    expect(markdown).toContain("> _Reasoning:_\n> The user wants a file and a shell check. Start with echo.");
    expect(markdown).toContain('_Added by the host:_\n\n```\nCalled the Read tool with the following input: {"filePath":"/project/notes.txt"}\n```');
    expect(markdown).toContain("Attached: `notes.txt`");
    expect(markdown).toContain("Subagent session: `ses_dd4f295e6ffePhDcRg6W5vSDWC` (`opencode-engram export ses_dd4f295e6ffePhDcRg6W5vSDWC`)");
    expect(markdown).toContain("**Compaction requested** (manual)");
    expect(markdown).toMatch(/\*\*Compaction summary\*\* · [^\n]* · `msg_22b0d73bd001iNNi1KjK1dWRLq`\n\n_The model was given this[^\n]*\n\n> ## Objective\n/);
  });
});

describe("export Markdown folding", () => {
  it("folds a long tool output, input and reasoning, naming how much was left out and the part to show", () => {
    const output = `${"line of output\n".repeat(400)}END`;
    const call = toolCall("bash", { command: `echo ${"x".repeat(3000)}` }, "completed", output);
    const thinking = reasoningPart("think ".repeat(400));
    const answer = assistant([thinking, call]);
    const markdown = render([user("Run it."), answer]);
    const more = output.length - FOLD.toolOutput;
    expect(markdown).toContain(
      `… [${more} chars more]\n\`\`\`\n\n_Folded: ${more.toLocaleString("en-US")} more characters; the whole part: \`opencode-engram show ${answer.id} --part ${call.id}\`_`,
    );
    expect(markdown).not.toContain("END");
    expect(markdown.match(new RegExp(`--part ${call.id}`, "g"))).toHaveLength(2);
    expect(markdown).toContain(`--part ${thinking.id}`);
    expect(markdown).toMatch(/> _Reasoning:_\n> think think [^\n]*… \[\d+ chars more\]/);
  });

  it("keeps the user's and the assistant's words whole, however long", () => {
    const long = "word ".repeat(5000).trim();
    const markdown = render([user(long), assistant([long])]);
    expect(markdown.split(long)).toHaveLength(3);
    expect(markdown).not.toContain("Folded");
  });

  it("fences text holding backticks with a longer fence", () => {
    expect(fenced("a ``` b")).toBe("````\na ``` b\n````");
    expect(fenced("plain\n")).toBe("```\nplain\n```");
  });

  it("marks subtasks, agents, errors, the host's continue, a summary carried in by the user, and a subagent session's parent", () => {
    const [request, summary] = compactionPair(true);
    const markdown = render(
      [
        user([
          { kind: "subtask", id: nextId("prt"), prompt: "Review the limiter.", description: "Review", agent: "general" },
          { kind: "agent", id: nextId("prt"), name: "explore" },
        ]),
        assistant([], { error: { name: "APIError", message: "bad request" } }),
        request!,
        summary!,
        user("Continue if you have next steps.", { compactionContinue: true }),
        user("This session is being continued from a previous conversation that ran out of context. It was about limits."),
      ],
      { parentId: "ses_parent", agent: "general" },
    );
    expect(markdown).toContain("- Subagent session of `ses_parent` (agent `general`)");
    expect(markdown).toContain("**Subtask** for agent `general`: Review\n\n> Review the limiter.");
    expect(markdown).toContain("**Agent** `@explore`");
    expect(markdown).toContain("**Error:** APIError: bad request");
    expect(markdown).toContain("**Compaction requested** (automatic, the context was full)");
    expect(markdown).toMatch(/\*\*Compaction summary\*\* · [^\n]*\n\n_The model[^\n]*\n\n> summary text/);
    expect(markdown).toMatch(/\*\*Host\*\*: continue after compaction · [^\n]*\n\nContinue if you have next steps\./);
    expect(markdown).toMatch(/\*\*Compaction summary\*\* \(carried in as a user message\)[^\n]*\n\n_The model[^\n]*\n\n> This session is being continued/);
  });
});
