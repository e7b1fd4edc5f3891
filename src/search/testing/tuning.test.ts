import { describe, expect, it } from "vitest";
import { MemorySource } from "../../store/testing/memory-source.ts";
import { parseQuery } from "../text/query.ts";
import { DEFAULT_TUNING } from "../tuning.ts";
import type { SearchRequest } from "../types.ts";
import { FILLER } from "./filler.ts";
import { testService } from "./service.ts";
import { addSession } from "./sessions.ts";
import { tuningWith } from "./tuning.ts";

describe("DEFAULT_TUNING", () => {
  it("is frozen all the way down", () => {
    expect(Object.isFrozen(DEFAULT_TUNING)).toBe(true);
    expect(Object.isFrozen(DEFAULT_TUNING.query.stems)).toBe(true);
    expect(Object.isFrozen(DEFAULT_TUNING.sessions.contentWeights)).toBe(true);
    expect(() => {
      (DEFAULT_TUNING.query.stems as { on: boolean }).on = false;
    }).toThrow(TypeError);
    expect(DEFAULT_TUNING.query.stems.on).toBe(true);
  });
});

describe("tuningWith", () => {
  it("changes one value in a new object, sharing the rest and leaving its base as it is", () => {
    const off = tuningWith({ query: { stems: { on: false } } });
    expect(off.query.stems.on).toBe(false);
    expect(off.query.stems.weight).toBe(DEFAULT_TUNING.query.stems.weight);
    expect(off.query.functionWords).toBe(DEFAULT_TUNING.query.functionWords);
    expect(DEFAULT_TUNING.query.stems.on).toBe(true);
  });

  it("parses a query under the tuning given, each tuning its own cached parse", () => {
    const off = tuningWith({ query: { stems: { on: false } } });
    const withStems = parseQuery("printed lines", DEFAULT_TUNING);
    expect(parseQuery("printed lines", off).terms.length).toBeLessThan(withStems.terms.length);
    expect(parseQuery("printed lines", DEFAULT_TUNING)).toBe(withStems);
  });
});

describe("a service built with a tuning", () => {
  it("ranks with it: stems off, a word no longer finds its other forms", async () => {
    const source = new MemorySource();
    const messages = addSession(source, "s1", [...FILLER, "the report we print every night", ...FILLER, "it printed the report twice", ...FILLER]);
    const exact = messages[FILLER.length]!.id;
    const other = messages[2 * FILLER.length + 1]!.id;
    const request: SearchRequest = { query: "print", callerSessionId: "other", scope: "session", sessionId: "s1", types: ["text", "tool"] };
    const ids = async (service: ReturnType<typeof testService>) => (await service.search(request)).results.map((result) => result.message.id);
    expect(await ids(testService(source))).toEqual([exact, other]);
    expect(await ids(testService(source, undefined, tuningWith({ query: { stems: { on: false } } })))).toEqual([exact]);
  });
});
