// Plays a realistic session against the real host (without our plugin, so the data is pure host
// output) and saves the raw HTTP JSON as unit-test fixtures in src/history/testing/fixtures/.
// Run on purpose only:  CAPTURE_FIXTURES=1 npx vitest run --project e2e e2e/capture-fixtures.e2e.test.ts
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startHost, type Host } from "./harness/host.ts";
import { repoRoot } from "./harness/paths.ts";
import { toolParts } from "./harness/tool-call.ts";

const enabled = process.env.CAPTURE_FIXTURES === "1";
const outDir = join(repoRoot, "src", "history", "testing", "fixtures");

const SUMMARY = `## Objective
- Set up hello.txt with a greeting and review the project's text files.

## Progress
- Created hello.txt, fixed its greeting with edit (the first edit failed: oldString not found).
- Listed *.txt files; a general subagent reviewed notes.txt and found nothing to fix.

## Relevant Files
- hello.txt
- notes.txt
`;

/** Machine-specific temp paths → stable placeholders, longest first so nested dirs win. */
function scrub(host: Host, value: unknown): unknown {
  const map: [string, string][] = [
    [join(host.root, "project"), "/project"],
    [join(host.root, "data"), "/home/.local/share"],
    [join(host.root, "config"), "/home/.config"],
    [join(host.root, "cache"), "/home/.cache"],
    [join(host.root, "state"), "/home/.local/state"],
    [join(host.root, "home"), "/home"],
    [host.root, "/tmp/e2e"],
  ];
  let text = JSON.stringify(value);
  for (const [from, to] of map) text = text.split(from).join(to);
  if (text.includes(host.root)) throw new Error("a temp path survived scrubbing");
  return JSON.parse(text);
}

function save(host: Host, name: string, value: unknown): void {
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, name), `${JSON.stringify(scrub(host, value), null, 2)}\n`);
}

let host: Host;

beforeAll(async () => {
  if (!enabled) return;
  host = await startHost({
    plugin: [],
    projectFiles: {
      "notes.txt": "hello notes\nTODO: review the greeting\n",
      "src/app.ts": 'export const greeting = "hello";\n',
    },
  });
});

afterAll(async () => {
  await host?.stop();
});

test.skipIf(!enabled)("capture main, child and session-list fixtures", async () => {
  const { mock, directory } = host;
  const session = await host.createSession();
  const hello = join(directory, "hello.txt");

  // Turn 1: reasoning, bash, write.
  mock.push(
    { reasoning: "The user wants a file and a shell check. Start with echo.", toolCalls: [{ name: "bash", args: { command: "echo hi" } }] },
    { toolCalls: [{ name: "write", args: { filePath: hello, content: "Helo world\n" } }] },
    { text: "I ran `echo hi` (it printed `hi`) and created **hello.txt**." },
  );
  await host.prompt(session.id, "Create hello.txt with a greeting, and check the shell works with echo hi.");

  // Turn 2: read, a failing edit, a successful edit.
  mock.push(
    { toolCalls: [{ name: "read", args: { filePath: hello } }] },
    { toolCalls: [{ name: "edit", args: { filePath: hello, oldString: "Hallo world", newString: "Hello world" } }] },
    {
      reasoning: "oldString did not match; the typo is Helo.",
      toolCalls: [{ name: "edit", args: { filePath: hello, oldString: "Helo world", newString: "Hello world" } }],
    },
    { text: "Fixed the typo: hello.txt now says `Hello world`." },
  );
  await host.prompt(session.id, "There is a typo in hello.txt, please fix it.");

  // Turn 3: glob and grep.
  mock.push(
    { toolCalls: [{ name: "glob", args: { pattern: "**/*.txt" } }] },
    { toolCalls: [{ name: "grep", args: { pattern: "hello", include: "*.txt" } }] },
    { text: "Found two text files: hello.txt and notes.txt; both mention hello." },
  );
  await host.prompt(session.id, "Which text files do we have, and which mention hello?");

  // Turn 4: a user message with a file attachment.
  mock.push({ text: "notes.txt has a greeting and one TODO: review the greeting." });
  await host.prompt(session.id, "Summarize the attached notes.", {
    parts: [{ type: "file", mime: "text/plain", filename: "notes.txt", url: pathToFileURL(join(directory, "notes.txt")).href }],
  });

  // Turn 5: a subagent via the task tool; the child reads a file, then answers.
  mock.push(
    { toolCalls: [{ name: "task", args: { description: "Review notes", prompt: "Review notes.txt and report problems.", subagent_type: "general" } }] },
    { toolCalls: [{ name: "read", args: { filePath: join(directory, "notes.txt") } }] },
    { text: "Reviewed notes.txt: only the TODO about the greeting, which is done." },
    { text: "The subagent found nothing else to fix." },
  );
  await host.prompt(session.id, "Ask a subagent to review notes.txt.");

  // Manual compaction, then two more turns.
  mock.setResponder((req) => (req.kind === "compaction" ? { text: SUMMARY } : undefined));
  expect(await host.summarize(session.id)).toBe(true);
  mock.setResponder(undefined);
  mock.push({ text: "So far: hello.txt created and fixed, text files listed, notes reviewed by a subagent." });
  await host.prompt(session.id, "What is the state of things now?");
  mock.push({ toolCalls: [{ name: "bash", args: { command: "ls" } }] }, { text: "The project has README.md, hello.txt, notes.txt and src/." });
  await host.prompt(session.id, "List the project files.");
  expect(mock.pending()).toBe(0);

  const messages = await host.messages(session.id);
  const edits = toolParts(messages, "edit").map((p) => p.state.status);
  expect(edits).toEqual(["error", "completed"]);
  const children = await host.children(session.id);
  expect(children).toHaveLength(1);
  const child = children[0]!;

  save(host, "main-session.json", messages);
  save(host, "child-session.json", await host.messages(child.id));
  save(host, "sessions.json", await host.sessions());
});
