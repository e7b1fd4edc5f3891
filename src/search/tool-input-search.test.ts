import { describe, expect, it } from "vitest";
import { textMessage, toolPart } from "../history/testing/messages.ts";
import { MemorySource } from "../store/testing/memory-source.ts";
import { testService } from "./testing/service.ts";

const T0 = Date.UTC(2025, 0, 1);

describe("tool inputs in search", () => {
  it('are searched and shown as written: a word that starts a line of a command is found, no \\n or \\" in snippets', async () => {
    const source = new MemorySource();
    const command = "cat > reproduce.py <<'EOF'\nimport matplotlib\nfrom quokka import Burrow\nprint(\"ok\")\nEOF\npython reproduce.py";
    const message = textMessage("s1", "assistant", "Writing the script.", T0, [toolPart("bash", { command, description: "" }, "ok")]);
    source.add({ id: "s1", title: "t", created: T0, updated: T0 }, [textMessage("s1", "user", "Reproduce the bug.", T0 - 1000), message]);
    for (const built of [false, true]) {
      const service = testService(source);
      if (built) await service.buildIndex("s1");
      const answer = await service.search({ query: "from quokka", callerSessionId: "other", sessionId: "s1", scope: "session", types: ["tool"] });
      expect(answer.results.map((r) => r.message.id)).toEqual([message.id]);
      const snippet = answer.results[0]!.hits[0]!.snippets.join(" ");
      expect(snippet).toContain('from quokka import Burrow print("ok")');
      expect(snippet).not.toMatch(/\\n|\\"|description=/);
    }
  });
});
