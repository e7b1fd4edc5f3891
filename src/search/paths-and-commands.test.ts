import { describe, expect, it } from "vitest";
import { textMessage, toolPart } from "../history/testing/messages.ts";
import { MemorySource } from "../store/testing/memory-source.ts";
import { formatSearchAnswer } from "./answer.ts";
import { FILLER } from "./testing/filler.ts";
import { idsOnBothPaths, testService } from "./testing/service.ts";
import { addSession, T0 } from "./testing/sessions.ts";

describe("paths and commands in ranking", () => {
  it("rank a tool call made on a path above an output that merely prints it", async () => {
    const path = "lib/spotter/telemetry/otel.ex";
    const status = textMessage("s1", "assistant", "Checking.", T0 + 100, [
      toolPart(
        "bash",
        { command: "git status" },
        `On branch main\nChanges not staged for commit:\n\tmodified:   ${path}\n\tmodified:   lib/spotter/application.ex\n`,
      ),
    ]);
    const edit = textMessage("s1", "assistant", "Updating the module.", T0 + 200, [
      toolPart("edit", { filePath: `/home/u/app/${path}`, oldString: "def setup, do: :ok", newString: "def setup, do: configure()" }, "Edit applied."),
    ]);
    const source = new MemorySource();
    addSession(source, "s1", [...FILLER, ...FILLER, status, edit], { step: 1 });
    const { cold, warm } = await idsOnBothPaths(source, "s1", path);
    expect(cold[0]).toBe(edit.id);
    expect(warm[0]).toBe(edit.id);
  });

  it("prefer a text holding a path whole over one holding its words scattered", async () => {
    const scattered = textMessage(
      "s1",
      "assistant",
      "The collation: models of django hold fields; the db layer is related to the models, and py files define fields of related models in django db code.",
      T0 + 100,
    );
    const whole = textMessage("s1", "assistant", "Patched django/db/models/fields/related.py so foreign keys copy the collation.", T0 + 200);
    const source = new MemorySource();
    addSession(source, "s1", [...FILLER, ...FILLER, whole, scattered], { step: 1 });
    const { cold, warm } = await idsOnBothPaths(source, "s1", "collation in django/db/models/fields/related.py");
    expect(cold[0]).toBe(whole.id);
    expect(warm[0]).toBe(whole.id);
  });

  it("count a snake_case name of the query as one word, so the rest of the query still counts", async () => {
    // Without it, pytest, collect and file are three of the query's five words: a text full of
    // `pytest` and `collect` covers more of the query than the definition that holds the name.
    const definition = textMessage("s1", "assistant", "Found it:\n\ndef pytest_collect_file(path, parent):\n    ext = path.ext", T0 + 100);
    const chatter = textMessage("s1", "assistant", "pytest will collect the file; pytest collects each file it finds and pytest runs it.", T0 + 200);
    const source = new MemorySource();
    addSession(source, "s1", [...FILLER, ...FILLER, definition, chatter], { step: 1 });
    const { cold, warm } = await idsOnBothPaths(source, "s1", "where is pytest_collect_file defined");
    expect(cold[0]).toBe(definition.id);
    expect(warm[0]).toBe(definition.id);
  });

  it("correct a misspelt word inside a snake_case name once the index is built", async () => {
    const definition = textMessage("s1", "assistant", "def pytest_collect_file(path, parent): returns a Module", T0 + 100);
    const source = new MemorySource();
    addSession(source, "s1", [...FILLER, definition], { step: 1 });
    const service = testService(source);
    await service.buildIndex("s1");
    const answer = await service.search({ query: "pytest_colect_file", callerSessionId: "other", sessionId: "s1", scope: "session", types: ["text"] });
    expect(answer.results[0]?.message.id).toBe(definition.id);
    expect(formatSearchAnswer(answer, "").searched_instead).toEqual({ colect: "collect" });
  });
});

describe("questions that ask for a command run or a change made", () => {
  it("rank the command that ran it above a message that talks about running it", async () => {
    const talk = textMessage(
      "s1",
      "assistant",
      "Dialyzer passes now that the return type is fixed and the spec matches the function again. Next: run the whole test suite once more, then commit the change and push the branch.",
      T0 + 100,
      [toolPart("bash", { command: "mix test 2>&1 | tail -3" }, "52 tests, 0 failures")],
    );
    const ran = textMessage("s1", "assistant", "", T0 + 200, [
      toolPart("bash", { command: "mix dialyzer 2>&1 | tail -5", description: "Type check" }, "Total errors: 0, Skipped: 0\ndone (passed successfully)"),
    ]);
    const source = new MemorySource();
    addSession(source, "s1", [...FILLER, ...FILLER, ran, talk], { step: 1 });
    const asked = await idsOnBothPaths(source, "s1", "how did we run dialyzer");
    expect([asked.cold[0], asked.warm[0]]).toEqual([ran.id, ran.id]);
    // Without the question's wording the same word ranks as any keyword query: the talk first.
    const plain = await idsOnBothPaths(source, "s1", "dialyzer spec");
    expect([plain.cold[0], plain.warm[0]]).toEqual([talk.id, talk.id]);
  });

  it("rank the edit of a file above views of it when asked what changed in it", async () => {
    const path = "lib/spotter/telemetry/otel.ex";
    const code = Array.from({ length: 20 }, (_, k) => `    step_${k}()`).join("\n");
    const view = textMessage("s1", "assistant", `Reading ${path} again before the change.`, T0 + 100, [
      toolPart("bash", { command: `sed -n '1,30p' ${path}` }, `defmodule Spotter.Telemetry.Otel do\n  def setup do\n${code}\n  end\nend`),
    ]);
    const grep = textMessage("s1", "assistant", "Where is setup?", T0 + 150, [
      toolPart("bash", { command: `grep -n "def setup" ${path}` }, "2:  def setup do"),
    ]);
    const edit = textMessage("s1", "assistant", "Making setup configurable.", T0 + 200, [
      toolPart("bash", { command: `sed -i 's/def setup do/def setup(opts \\\\ []) do/' ${path}` }, ""),
    ]);
    const source = new MemorySource();
    addSession(source, "s1", [...FILLER, ...FILLER, edit, view, grep], { step: 1 });
    const { cold, warm } = await idsOnBothPaths(source, "s1", `what did we change in ${path}`);
    expect([cold[0], warm[0]]).toEqual([edit.id, edit.id]);
  });
});

describe("snippets of tool hits", () => {
  it("come from the output where the output holds the match, on both paths", async () => {
    const grep = textMessage("s1", "assistant", "Looking.", T0 + 100, [
      toolPart(
        "bash",
        { command: "grep -rn LIMITER_REDIS_URL src" },
        `${"src/app.ts:3: import config\n".repeat(30)}src/config.ts:12: const url = process.env.LIMITER_REDIS_URL`,
      ),
    ]);
    const source = new MemorySource();
    addSession(source, "s1", [...FILLER, grep], { step: 1 });
    for (const built of [false, true]) {
      const service = testService(source);
      if (built) await service.buildIndex("s1");
      const answer = formatSearchAnswer(
        await service.search({ query: "LIMITER_REDIS_URL", callerSessionId: "x", sessionId: "s1", scope: "session", types: ["text", "tool"] }),
        "",
      ) as { messages: Array<{ hits: Array<{ snippets: string[] }> }> };
      expect(answer.messages[0]!.hits[0]!.snippets[0]).toContain("process.env.LIMITER_REDIS_URL");
    }
  });
});
