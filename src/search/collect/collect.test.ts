import { describe, expect, it } from "vitest";
import { toolVisibility } from "../../history/tool-visibility.ts";
import type { SessionInfo } from "../../history/types.ts";
import { collectScope, type SessionSearcher } from "./collect.ts";
import type { ScanCounts } from "../scan/scan.ts";
import type { Query } from "../parse.ts";
import type { CollectedSession } from "./search-one-session.ts";
import { parseQuery } from "../text/query.ts";
import { DEFAULT_TUNING } from "../tuning.ts";

const query: Query = { kind: "keyword", text: "token bucket limiter", parsed: parseQuery("token bucket limiter", DEFAULT_TUNING) };

/** A session scanned cold that holds the typed form of each word in `words` (no documents to rank). */
function scanned(words: string[]): CollectedSession {
  const df = query.kind === "keyword" ? query.parsed.terms.map((term) => (!term.variant && words.includes(term.token) ? 1 : 0)) : [];
  return { docs: [], via: "scan", stats: { docs: 1, length: 1, df }, scan: {} as ScanCounts };
}

/** Searches sessions holding the given words, one at a time in order; returns what each collected. */
async function collectedBySearch(held: string[][]): Promise<CollectedSession[]> {
  const collected = held.map(scanned);
  const sessions: SessionInfo[] = held.map((_, i) => ({ id: `ses_${i}`, title: "", created: i, updated: i }));
  const searcher: SessionSearcher = {
    read: async (session) => ({
      collected: collected[Number(session.id.slice(4))]!,
      query,
      options: { visibility: toolVisibility([], []), tuning: DEFAULT_TUNING },
    }),
    candidates: () => {
      throw new Error("no documents to rank");
    },
    nearestTerms: async () => undefined,
    projected: () => {
      throw new Error("no projection here");
    },
  };
  await collectScope(sessions, query, searcher, { concurrency: 1, deadline: Number.POSITIVE_INFINITY });
  return collected;
}

describe("collectScope", () => {
  it("drops each session's scan counts once every query word has been found somewhere", async () => {
    const all = ["token", "bucket", "limiter"];
    expect((await collectedBySearch([all, all])).map((c) => c.scan)).toEqual([undefined, undefined]);
    // The first session lacks a word until the second is searched.
    expect((await collectedBySearch([["token", "bucket"], all, ["token"]])).map((c) => c.scan)).toEqual([undefined, undefined, undefined]);
  });

  it("keeps the scan counts for the typo pass while a word is found in no session", async () => {
    const collected = await collectedBySearch([["token", "bucket"], ["token"]]);
    expect(collected.every((c) => c.scan !== undefined)).toBe(true);
  });
});
