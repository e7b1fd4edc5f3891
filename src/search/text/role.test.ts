import { describe, expect, it } from "vitest";
import { parseQuery } from "./query.ts";
import { asksForUser } from "./role.ts";

describe("a question asking what the user said", () => {
  it("holds `user` beside a verb of saying or deciding, or `according to the user`", () => {
    for (const query of [
      "what did the user object to in the first --map-tokens tests about git",
      "which option did the user pick: quick fix or rebuild",
      "did the user agree to the plan",
      "why did the user reject piping ffmpeg output",
      "what was the real story according to the user",
      "what did the user's reply say about the logs",
    ]) {
      expect([query, parseQuery(query).user]).toEqual([query, true]);
    }
  });

  it("is not one about a user of the program, nor a name holding `user`", () => {
    for (const query of ["which tool saved the user's preference for vivid metaphors", "how does get_user_language figure out the locale", "user id column"]) {
      expect([query, parseQuery(query).user]).toEqual([query, undefined]);
    }
    expect(asksForUser(["what", "did", "we", "say"])).toBe(false);
  });

  it("takes `user` and the verb as function words, unless they are all the query holds", () => {
    const parsed = parseQuery("what did the user object to about the temporary WAV transcode");
    const groupOf = (token: string) => parsed.terms.find((term) => term.token === token)?.group;
    expect(groupOf("user")).toBeUndefined();
    expect(groupOf("object")).toBeUndefined();
    expect(groupOf("wav")).toBeGreaterThanOrEqual(0);
    expect(parseQuery("what did the user say").groups).toBeGreaterThan(0);
  });
});
