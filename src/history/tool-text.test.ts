import { describe, expect, it } from "vitest";
import { toolCall } from "./testing/messages.ts";
import { toolCallSignature } from "./tool-text.ts";

describe("toolCallSignature", () => {
  it("shows string arguments as the text they are: real newlines and quotes, no JSON escapes", () => {
    const command = "cat > app.py <<'EOF'\nimport os\nfrom pathlib import Path\nprint(\"done\")\nEOF";
    const signature = toolCallSignature(toolCall("bash", { command, timeout: 5 }));
    expect(signature).toBe(`bash(command="${command}", timeout=5)`);
    expect(signature).not.toContain("\\n");
    expect(signature).not.toContain('\\"');
  });

  it("leaves out empty arguments", () => {
    expect(toolCallSignature(toolCall("bash", { command: "ls", description: "", env: {}, args: [], cwd: null }))).toBe('bash(command="ls")');
    expect(toolCallSignature(toolCall("todoread", {}))).toBe("todoread()");
  });

  it("renders nested strings the same way", () => {
    const input = { filePath: "a.py", edits: [{ oldString: "x = 1\ny = 2", newString: 'say("hi")' }] };
    expect(toolCallSignature(toolCall("multiedit", input))).toBe('multiedit(filePath="a.py", edits=[{oldString="x = 1\ny = 2", newString="say("hi")"}])');
  });
});
