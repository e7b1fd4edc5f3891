import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { DEV_CORPUS_DIR, loadEvalSessions, loadRealSession, loadRealSessions } from "./sessions.ts";
import { SPLIT } from "./split.ts";

describe("real-session loader", () => {
  const sessions = loadRealSessions();

  it("loads every session of the dev corpus, named by its file", () => {
    expect(sessions.map((s) => s.name)).toEqual([
      "cc-spotter-8463c716",
      "cc-spotter-ae4a77f8",
      "mini-django-15629",
      "mini-matplotlib-24177",
      "mini-pylint-6528",
      "mini-pytest-6197",
      "mini-requests-1142",
      "mini-scikit-learn-25102",
    ]);
  });

  it("loads the split's sessions, in its order, each from its folder, tool calls mapped alike", () => {
    const all = loadEvalSessions();
    expect(all.map((s) => [s.name, s.folder])).toEqual(SPLIT.map((s) => [s.name, s.folder]));
    const drawn = all.find((s) => s.folder === "swebench")!;
    const tools = drawn.messages.flatMap((m) => m.parts).filter((p) => p.kind === "tool");
    expect(tools.length).toBeGreaterThan(10);
    expect(tools.every((p) => p.kind === "tool" && p.tool === "bash" && typeof (p.input as { command?: unknown }).command === "string")).toBe(true);
  });

  it("keeps the host's message ids, in order, under the session's id", () => {
    const file = join(DEV_CORPUS_DIR, "mini-django-15629.json.gz");
    const raw = JSON.parse(gunzipSync(readFileSync(file)).toString("utf8")) as { info: { id: string }; messages: Array<{ info: { id: string } }> };
    const session = loadRealSession(file);
    expect(session.info.id).toBe(raw.info.id);
    expect(session.messages.map((m) => m.id)).toEqual(raw.messages.map((m) => m.info.id));
    expect(session.messages.every((m) => m.sessionId === raw.info.id)).toBe(true);
  });

  it("maps parts as the host adapter does: tool calls with their input and output", () => {
    const session = sessions.find((s) => s.name === "mini-django-15629")!;
    const tools = session.messages.flatMap((m) => m.parts).filter((p) => p.kind === "tool");
    expect(tools.length).toBeGreaterThan(40);
    const first = tools[0]!;
    expect(first.kind === "tool" && first.tool).toBe("bash");
    expect(first.kind === "tool" && (first.input as { command?: string }).command).toBe("ls -la");
    expect(first.kind === "tool" && first.output).toContain("<returncode>0</returncode>");
    // step-start / step-finish carry no history and are dropped by the mapping.
    expect(session.messages.flatMap((m) => m.parts).some((p) => (p.kind as string) === "step-start")).toBe(false);
  });
});
