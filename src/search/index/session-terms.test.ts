// What the projection keeps of a session's chunks must be what a search counts: the same chunks
// (message, part, range, a call's input), the same weighted term frequencies (a call's input
// counted inputWeight times), the same documents and length. Held against the cold scan.
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../config/schema.ts";
import { reasoningPart, textMessage, toolPart } from "../../history/testing/messages.ts";
import { toolVisibility } from "../../history/tool-visibility.ts";
import type { HistoryMessage } from "../../history/types.ts";
import { buildView } from "../../history/view.ts";
import { seededRandom } from "../../util/testing/seeded-random.ts";
import { countSession } from "../scan/scan.ts";
import type { QueryTerm } from "../text/query.ts";
import { CHUNK_STRIDE, CHUNK_SUMMARY, TERM_CHUNK_STRIDE } from "../types.ts";
import { sessionTerms } from "./session-terms.ts";
import { DEFAULT_TUNING } from "../tuning.ts";

const WORDS = ["build", "tests", "error", "computeLineItemTotals", "débito", "0.33744", "limiter", "the", "src/app.ts", "retries", "Bucket"];

function session(seed: number): HistoryMessage[] {
  const random = seededRandom(seed);
  const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(" ");
  const messages: HistoryMessage[] = [];
  for (let m = 0; m < 12; m++) {
    // Now and then a text over several chunks (tuning.ts's chunkChars), a tool call with input and output, a reasoning.
    const text = random() < 0.2 ? Array.from({ length: 900 }, () => words(2)).join("\n") : words(5 + Math.floor(random() * 40));
    const extra = random() < 0.4 ? [toolPart("bash", { command: words(6) }, words(20))] : random() < 0.3 ? [reasoningPart(words(9))] : [];
    const message = textMessage("ses_t", m % 2 === 0 ? "user" : "assistant", text, 1_000 + m, extra);
    if (m === 5) message.summary = true;
    messages.push(message);
  }
  return messages;
}

describe("sessionTerms: the chunks a search counts", () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: frequencies, chunks, documents and length equal the scan's`, async () => {
      const config = defaultConfig();
      const visibility = toolVisibility(config.show_tool_input, config.show_tool_output);
      const messages = session(seed);
      const kept = await sessionTerms("ses_t", messages, visibility, DEFAULT_TUNING, () => undefined);
      const terms: QueryTerm[] = Array.from(kept.postings.entries(), ([token]) => token).map((token, group) => ({ token, group, cjk: false, weight: 1 }));
      const view = buildView("ses_t", messages, false);
      const scan = await countSession(view.messages.slice(0, view.visibleEnd), visibility, terms, DEFAULT_TUNING, () => true);
      expect(scan).toBeDefined();
      expect([kept.docs, kept.length]).toEqual([scan!.docs, scan!.length]);
      expect(kept.chunks.chunks.length / CHUNK_STRIDE).toBe(scan!.docs);
      // Every chunk the scan found holding a term, with its counts, and no other.
      const expected = new Map<string, number[]>();
      for (const { seq, message, doc, tfs } of scan!.candidates) {
        const at = seq * CHUNK_STRIDE;
        const [m, p, start, end, input] = kept.chunks.chunks.slice(at, at + CHUNK_STRIDE);
        expect(kept.chunks.message(m!).id).toBe(message.id);
        expect([kept.chunks.part(p!).id, kept.chunks.part(p!).type]).toEqual([doc.partId, doc.type]);
        expect([start, end, input]).toEqual([doc.start, doc.end, doc.input]);
        tfs.forEach((tf, t) => {
          if (tf > 0) expected.set(terms[t]!.token, [...(expected.get(terms[t]!.token) ?? []), seq, tf, doc.end - doc.start, m!]);
        });
      }
      expect(new Map(Array.from(kept.postings.entries(), ([term, list]) => [term, [...list]]))).toEqual(expected);
      expect(terms.map((term) => kept.postings.get(term.token)!.length / TERM_CHUNK_STRIDE)).toEqual(scan!.df);
      expect(kept.chunks.messages.filter(({ flags }) => flags & CHUNK_SUMMARY).length).toBe(1);
    });
  }
});
