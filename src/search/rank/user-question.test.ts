import { describe, expect, it } from "vitest";
import { textMessage } from "../../history/testing/messages.ts";
import { parseQuery } from "../text/query.ts";
import { setTuning } from "../testing/tuning.ts";
import { TUNING } from "../tuning.ts";
import type { ScoredDoc } from "../types.ts";
import { candidateGroups } from "./rank.ts";
import { userChunkWeight } from "./user-question.ts";

const doc = (id: string, role: "user" | "assistant", score: number): ScoredDoc => ({
  message: { ...textMessage("s1", role, id, 0), id },
  partId: `${id}-p`,
  type: "text",
  start: 0,
  end: 10,
  score,
});

describe("candidate messages for a question asking what the user said", () => {
  const question = parseQuery("what did the user object to in the map tokens tests");

  it("weighs the agent's and the host's messages by otherWeight, the person's by 1", () => {
    const agent = doc("a", "assistant", 1).message;
    const person = doc("p", "user", 1).message;
    expect(userChunkWeight(question, agent)).toBe(TUNING.query.userQuestion.otherWeight);
    expect(userChunkWeight(question, person)).toBe(1);
    expect(userChunkWeight(question, { ...person, hostWritten: true })).toBe(TUNING.query.userQuestion.otherWeight);
    expect(userChunkWeight(parseQuery("why did the map tokens tests fail"), agent)).toBe(1);
    expect(userChunkWeight(undefined, agent)).toBe(1);
  });

  it("rank the person's line above the agent's text that scores a little higher, and keep the order for other questions", () => {
    const docs = () => [doc("said", "assistant", 1.2), doc("asked", "user", 1)];
    expect(candidateGroups(docs(), question).map((g) => g.message.id)).toEqual(["asked", "said"]);
    expect(candidateGroups(docs(), parseQuery("why did the map tokens tests fail")).map((g) => g.message.id)).toEqual(["said", "asked"]);
  });

  it("weighs nothing when the rule is off", () => {
    const restore = setTuning({ query: { userQuestion: { on: false } } });
    try {
      expect(parseQuery("what did the user object to in the map tokens tests").terms.find((t) => t.token === "user")?.group).toBe(0);
      expect(userChunkWeight(parseQuery("what did the user object to in the map tokens tests"), doc("a", "assistant", 1).message)).toBe(1);
    } finally {
      restore();
    }
  });
});
