import { describe, expect, it } from "vitest";
import { textMessage } from "../../history/testing/messages.ts";
import { parseQuery } from "../text/query.ts";
import { tuningWith } from "../testing/tuning.ts";
import type { ScoredDoc } from "../types.ts";
import { isPlainQuestion, toolChunkWeight } from "./plain-question.ts";
import { candidateGroups } from "./rank.ts";
import { DEFAULT_TUNING } from "../tuning.ts";

describe("a question in plain words", () => {
  it("has a few content words and no path, name, number, command or change asked for", () => {
    expect(isPlainQuestion(parseQuery("why could the LiveView tests not see the database rows", DEFAULT_TUNING))).toBe(true);
    expect(isPlainQuestion(parseQuery("why did we switch into planning before touching the renderer", DEFAULT_TUNING))).toBe(true);
  });

  it("is not one naming a path or name, a number, a command or a change, nor one of fewer words", () => {
    for (const query of [
      "what did we change in django/db/models/fields/related.py",
      "where did we pass simplify=False to iter_bezier",
      "did all 609 schema and model_fields tests pass",
      "how did we run django's own schema test suites",
      "which lines were edited in the schema editor",
      "collation foreign",
    ]) {
      expect([query, isPlainQuestion(parseQuery(query, DEFAULT_TUNING))]).toEqual([query, false]);
    }
  });

  it("weighs a tool part's chunks by toolWeight, any other question by 1, and nothing when the rule is off", () => {
    const plain = parseQuery("why could the tests not see the database rows", DEFAULT_TUNING);
    expect(toolChunkWeight(plain)).toBe(DEFAULT_TUNING.plainQuestion.toolWeight);
    expect(toolChunkWeight(parseQuery("what did we change in src/a.py", DEFAULT_TUNING))).toBe(1);
    expect(toolChunkWeight(undefined)).toBe(1);
    const off = tuningWith({ plainQuestion: { on: false } });
    expect(toolChunkWeight(parseQuery("why could the tests not see the database rows", off))).toBe(1);
  });
});

describe("candidate messages for a plain question", () => {
  const doc = (id: string, type: ScoredDoc["type"], score: number): ScoredDoc => ({
    message: { ...textMessage("s1", "assistant", id, 0), id },
    partId: `${id}-p`,
    type,
    start: 0,
    end: 10,
    score,
  });

  it("rank the agent's text above a tool output that scores a little higher, and keep the order for other questions", () => {
    const docs = () => [doc("out", "tool", 1.2), doc("said", "text", 1)];
    const plain = candidateGroups(docs(), DEFAULT_TUNING, parseQuery("why could the tests not see the database rows", DEFAULT_TUNING));
    expect(plain.map((g) => g.message.id)).toEqual(["said", "out"]);
    const named = candidateGroups(docs(), DEFAULT_TUNING, parseQuery("what did we change in src/a.py", DEFAULT_TUNING));
    expect(named.map((g) => g.message.id)).toEqual(["out", "said"]);
  });
});
