import { describe, expect, it } from "vitest";
import type { SessionInfo } from "../../history/types.ts";
import { parseQuery } from "../text/query.ts";
import type { Candidates } from "../rank/candidates.ts";
import { SessionCutRanking } from "./session-cut.ts";

const session = (id: string, title: string): SessionInfo => ({ id, title, created: 0, updated: 0 });
/** A session's candidates as the cut sees them: its best message scores. */
const best = (...scores: number[]) => ({ top: (k: number) => scores.slice(0, k).map((score) => ({ score })) }) as unknown as Candidates;

describe("history_sessions' score-bound cut", () => {
  // Two sessions read before the cut (scores 5 and 4.9); F may hold a message up to 100; S holds
  // little (bound 1) but its title covers the query, so its score rises with the best message.
  const [x, y, f, s] = [session("x", "x"), session("y", "y"), session("f", "f"), session("s", "limiter")];
  function cut(): SessionCutRanking {
    const ranking = new SessionCutRanking([x, y, f, s], parseQuery("limiter"), 2);
    ranking.add(x, best(5));
    ranking.add(y, best(4.9));
    expect(
      ranking
        .order([
          { session: s, bound: 1 },
          { session: f, bound: 100 },
        ])
        .map((entry) => entry.session.id),
    ).toEqual(["f", "s"]);
    return ranking;
  }

  it("does not stop while a session in flight may raise the best message, and with it a titled session's score", () => {
    expect(cut().excludes(1)).toBe(false);
  });

  it("stops once that session is read and holds nothing better", () => {
    const ranking = cut();
    ranking.add(f, best(3));
    expect(ranking.excludes(1)).toBe(true);
  });

  it("reads the titled session when the best message rose", () => {
    const ranking = cut();
    ranking.add(f, best(100));
    expect(ranking.excludes(1)).toBe(false);
  });
});
